package trace

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// PatchRef is one patch of a kustomization in a cluster's closure: an
// entry of patches, patchesJson6902 or patchesStrategicMerge, or a
// transformers entry naming a file of built-in patch transformer
// configurations.
type PatchRef struct {
	kust *kustomization.File
	e    kustomization.Entry
	abs  string // the patch (or transformer configuration) file; "" inline
}

func (pr PatchRef) transformer() bool { return pr.e.Field == "transformers" }

// Relocation is what moving one built cluster's findings onto the patches
// that wrote their values needs: the built objects, the objects of the
// files they were made from (by built object), the patches of the
// kustomization closure (PatchesOf) and the files read.
type Relocation struct {
	Objects []*manifest.Object
	Origins map[*manifest.Object]*manifest.Object
	Patches []PatchRef
	Files   *kustomization.Resolver

	search *patchSearch
}

// Place returns the line in a kustomize patch (or a patch transformer, of
// the overlay, a base or a component) that wrote the value at path of the
// built object kind/name, or for a value of the origin file that a patch
// moved (an entry inserted before it), where that file holds it; ok is
// false when neither applies. Objects
// are already positioned in the file that defines them (see Remap); a
// value a patch added or changed is not in that file, so a finding
// would otherwise point at the nearest part of the unpatched object.
//
// A value is the patch's when the patch holds it where the built object
// has it: a JSON 6902 add or replace at its path (an "-" append or an
// insertion at an index: the operation's whole value is the element
// found there), a strategic-merge patch whose document holds the same
// value on the same path (list elements matched by value, or by a key such
// as name or source). A value the origin file holds too is the patch's
// when the patch restates it (see restatable). Later patches are tried
// first, as kustomize applies them last.
//
// Patch files are parsed once per Relocation; not safe for concurrent use.
func (c *Relocation) Place(kind, name, path string) (_ manifest.Position, ok bool) {
	if len(c.Patches) == 0 {
		return manifest.Position{}, false
	}
	if c.search == nil {
		c.search = &patchSearch{res: c.Files}
	}
	return c.patchPosition(c.search, kind, name, path)
}

// PatchFinder is Relocate for objects read from a stream (`kustomize
// build DIR | mirrorlint lint -`): Position searches the patches of the
// kustomization in dir and of its bases, last applied first, for the one
// that sets the value at path to the object's value there. It keeps the
// kustomization graph, the files it loaded and the parsed patches between
// calls. Not safe for concurrent use.
type PatchFinder struct {
	g      *kustomization.Graph
	s      *patchSearch
	byDir  map[string][]PatchRef // patches of the closure of each directory
	hasDir map[string]bool       // whether the directory holds a kustomization
}

// NewPatchFinder returns a PatchFinder that loads patch files with load.
func NewPatchFinder(load manifest.Options) *PatchFinder {
	return &PatchFinder{g: kustomization.NewGraph(), s: &patchSearch{res: kustomization.NewResolver(load, workingRelative)},
		byDir: map[string][]PatchRef{}, hasDir: map[string]bool{}}
}

// Position returns where a patch of the kustomization in dir (or of its
// bases) writes the value at path of o. names are the names a patch may
// target the object by (the built name, the origin file's name).
// Positions name files relative to the working directory.
func (pf *PatchFinder) Position(dir string, o *manifest.Object, names []string, path manifest.Path) (manifest.Position, bool) {
	if _, ok := path.Lookup(o.Content); !ok {
		return manifest.Position{}, false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return manifest.Position{}, false
	}
	has, done := pf.hasDir[abs]
	if !done {
		if has = pf.g.Get(abs) != nil; has {
			kusts, _ := pf.g.Closure(abs)
			pf.byDir[abs] = PatchesOf(kusts)
		}
		pf.hasDir[abs] = has
	}
	if !has {
		return manifest.Position{}, false
	}
	patches := pf.byDir[abs]
	for i := len(patches) - 1; i >= 0; i-- {
		if pos, ok := pf.s.searchPatch(patches[i], o, names, path); ok {
			return pos, true
		}
	}
	return manifest.Position{}, false
}

// PatchesOf lists the patch entries of a closure (top-level kustomization
// first), bases' patches first as kustomize applies them.
func PatchesOf(kusts []*kustomization.File) []PatchRef {
	var out []PatchRef
	for i := len(kusts) - 1; i >= 0; i-- {
		k := kusts[i]
		for _, e := range k.Entries {
			if e.IsRemote() || !(e.IsPatch() || e.Field == "transformers" && e.Value != "") {
				continue
			}
			pr := PatchRef{kust: k, e: e}
			if e.Value != "" {
				pr.abs = filepath.Clean(filepath.Join(k.Dir, e.Value))
				if pr.transformer() && isDir(pr.abs) {
					continue
				}
			}
			out = append(out, pr)
		}
	}
	return out
}

func (c *Relocation) patchPosition(s *patchSearch, kind, name, path string) (manifest.Position, bool) {
	var o *manifest.Object
	for _, x := range c.Objects {
		if string(x.Kind) == kind && x.Name == name {
			o = x
			break
		}
	}
	src := c.Origins[o]
	if src == nil {
		return manifest.Position{}, false
	}
	p := manifest.ParsePath(path)
	bv, bok := p.Lookup(o.Content)
	ov, ook := p.Lookup(src.Content)
	if !bok {
		return manifest.Position{}, false
	}
	same := ook && reflect.DeepEqual(bv, ov)
	if same && !restatable(p) {
		return manifest.Position{}, false
	}
	names := []string{o.Name, src.Name}
	// Later patches win in kustomize, so the last one that sets the value
	// is the one to fix.
	for i := len(c.Patches) - 1; i >= 0; i-- {
		if pos, ok := s.searchPatch(c.Patches[i], o, names, p); ok {
			return pos, true
		}
	}
	if same {
		return manifest.Position{}, false
	}
	// No patch wrote it: the origin file holds it, elsewhere (a patch
	// inserted entries before it).
	if q, ok := sameValuePath(src.Content, o.Content, p); ok {
		return src.Locate(q), true
	}
	return manifest.Position{}, false
}

// restatable reports whether a value the origin file holds unchanged is
// still the patch's when a patch writes it too: the patch is applied last,
// so it is what reaches the cluster, and filling in the origin file alone
// would change nothing (a placeholder a patch repeats is filled in the
// patch). Not so for the values a patch restates only to say what it
// patches: the object's metadata (its name) and the key that identifies a
// list element it merges into (a mirror entry's source); those belong to
// the file that defines them.
func restatable(p manifest.Path) bool {
	if len(p) == 0 || p[0] == "metadata" {
		return false
	}
	if n := len(p); n >= 2 {
		if _, inList := p[n-2].(int); inList {
			if k, ok := p[n-1].(string); ok && slices.Contains(identityKeys, k) {
				return false
			}
		}
	}
	return true
}

// patchSearch looks for values in patches, parsing each patch file once.
type patchSearch struct {
	res  *kustomization.Resolver
	docs map[string][]*yaml.Node // parsed patch files by path; nil: unreadable
	data map[string][]byte       // their text
}

// documents returns the parsed documents of the patch file at abs, from the
// bytes the resolver holds (see resolver.text).
func (s *patchSearch) documents(abs string) ([]*yaml.Node, []byte) {
	if docs, ok := s.docs[abs]; ok {
		return docs, s.data[abs]
	}
	data := s.res.Text(abs)
	var docs []*yaml.Node
	if data != nil {
		docs = documents(data)
	}
	if s.docs == nil {
		s.docs, s.data = map[string][]*yaml.Node{}, map[string][]byte{}
	}
	s.docs[abs], s.data[abs] = docs, data
	return docs, data
}

// searchPatch finds the node of one patch that wrote the value at p of
// the built object o.
func (s *patchSearch) searchPatch(pr PatchRef, o *manifest.Object, names []string, p manifest.Path) (manifest.Position, bool) {
	if pr.transformer() {
		return s.searchTransformers(pr, o, names, p)
	}
	if !targets(pr.e.HasTarget, pr.e.Target, o, names) {
		return manifest.Position{}, false
	}
	entryPos := manifest.Position{File: s.res.Display(pr.kust.Path), Line: pr.e.Line, Column: pr.e.Column}
	if pr.abs == "" {
		return s.inPatchText(pr.e.InlineAt, entryPos, pr.e.HasTarget, o, names, p)
	}
	// A strategic-merge patch of a mirror kind is an object the loader
	// read: its own Locate gives the value's whole extent.
	for _, po := range s.res.Objects(pr.abs) {
		if po.Kind == o.Kind && (pr.e.HasTarget || slices.Contains(names, po.Name)) && po.Node != nil {
			if n, q := pathHolding(po.Node, o.Content, p); n != nil {
				return po.Locate(q), true
			}
		}
	}
	docs, _ := s.documents(pr.abs)
	file := s.res.Display(pr.abs)
	return inDocuments(docs, func(n *yaml.Node) manifest.Position {
		return manifest.Position{File: file, Line: n.Line, Column: n.Column}
	}, pr.e.HasTarget, o, names, p)
}

// inPatchText searches a patch written inside another file.
func (s *patchSearch) inPatchText(it kustomization.InlineText, at manifest.Position, targeted bool, o *manifest.Object, names []string, p manifest.Path) (manifest.Position, bool) {
	return inDocuments(documents([]byte(it.Text())), func(n *yaml.Node) manifest.Position {
		if line, col, ok := it.Place(n.Line, n.Column); ok {
			return manifest.Position{File: at.File, Line: line, Column: col}
		}
		return at
	}, targeted, o, names, p)
}

// inDocuments searches the documents of one patch: JSON 6902 operations
// (a sequence) or strategic-merge patches (mappings), placed by pos.
func inDocuments(docs []*yaml.Node, pos func(*yaml.Node) manifest.Position, targeted bool, o *manifest.Object, names []string, p manifest.Path) (manifest.Position, bool) {
	for _, doc := range docs {
		switch doc.Kind {
		case yaml.SequenceNode:
			if n := opWriting(doc, o.Content, p); n != nil {
				return pos(n), true
			}
		case yaml.MappingNode:
			if kind := kustomization.Scalar(doc, "kind"); kind != "" && kind != string(o.Kind) {
				continue
			}
			if !targeted {
				if md := kustomization.MapValue(doc, "metadata"); !slices.Contains(names, kustomization.Scalar(md, "name")) {
					continue
				}
			}
			if n := nodeHolding(doc, o.Content, p); n != nil {
				return pos(n), true
			}
		}
	}
	return manifest.Position{}, false
}

// targets reports whether a patch entry's target selects o.
func targets(has bool, t kustomization.PatchTarget, o *manifest.Object, names []string) bool {
	if !has {
		return true
	}
	return (t.Kind == "" || t.Kind == string(o.Kind)) && (t.Name == "" || slices.Contains(names, t.Name))
}

// searchTransformers searches the built-in patch transformers a
// transformers entry configures (PatchTransformer, PatchJson6902Transformer,
// PatchStrategicMergeTransformer), whose patches are written inline in the
// configuration or in files it names.
func (s *patchSearch) searchTransformers(pr PatchRef, o *manifest.Object, names []string, p manifest.Path) (manifest.Position, bool) {
	docs, data := s.documents(pr.abs)
	file := s.res.Display(pr.abs)
	dir := pr.kust.Dir // kustomize resolves a transformer's paths from the kustomization
	for i := len(docs) - 1; i >= 0; i-- {
		cfg := docs[i]
		if cfg.Kind != yaml.MappingNode {
			continue
		}
		var inline []*yaml.Node
		var paths []string
		t, has := kustomization.PatchTarget{}, false
		if tn := kustomization.MapValue(cfg, "target"); tn != nil {
			t, has = kustomization.PatchTarget{Kind: kustomization.Scalar(tn, "kind"), Name: kustomization.Scalar(tn, "name")}, true
		}
		switch kustomization.Scalar(cfg, "kind") {
		case "PatchTransformer":
			inline = append(inline, kustomization.MapValue(cfg, "patch"))
			paths = append(paths, kustomization.Scalar(cfg, "path"))
		case "PatchJson6902Transformer":
			inline = append(inline, kustomization.MapValue(cfg, "jsonOp"))
			paths = append(paths, kustomization.Scalar(cfg, "path"))
		case "PatchStrategicMergeTransformer":
			inline = append(inline, kustomization.MapValue(cfg, "patches"))
			for _, n := range kustomization.Seq(kustomization.MapValue(cfg, "paths")) {
				paths = append(paths, n.Value)
			}
		default:
			continue
		}
		if !targets(has, t, o, names) {
			continue
		}
		at := manifest.Position{File: file, Line: cfg.Line, Column: cfg.Column}
		for _, n := range inline {
			if n != nil && n.Kind == yaml.ScalarNode {
				if pos, ok := s.inPatchText(kustomization.NewInlineText(n, data), at, has, o, names, p); ok {
					return pos, true
				}
			}
		}
		for _, rel := range paths {
			if rel == "" {
				continue
			}
			abs := filepath.Clean(filepath.Join(dir, rel))
			pdocs, _ := s.documents(abs)
			shown := s.res.Display(abs)
			if pos, ok := inDocuments(pdocs, func(n *yaml.Node) manifest.Position {
				return manifest.Position{File: shown, Line: n.Line, Column: n.Column}
			}, has, o, names, p); ok {
				return pos, true
			}
		}
	}
	return manifest.Position{}, false
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// workingRelative names a file relative to the working directory when it
// lies inside it, as the loader does for paths given that way.
func workingRelative(abs string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, in := manifest.Within(wd, abs); in {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(abs)
}
