package cluster

import (
	"path/filepath"
	"reflect"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// patchRef is one patch of a kustomization in a cluster's closure: an
// entry of patches, patchesJson6902 or patchesStrategicMerge, or a
// transformers entry naming a file of built-in patch transformer
// configurations.
type patchRef struct {
	kust *kustFile
	e    entry
	abs  string // the patch (or transformer configuration) file; "" inline
}

func (pr patchRef) transformer() bool { return pr.e.Field == "transformers" }

// Relocate moves findings whose value a kustomize patch (or a patch
// transformer, of the overlay, a base or a component) wrote to the line in
// the patch that wrote it, and findings on a value of the origin file that
// a patch moved (an entry inserted before it) back to that value. Objects
// are already positioned in the file that defines them (see remap); a
// value a patch added or changed is not in that file, so the finding
// would otherwise point at the nearest part of the unpatched object.
//
// A value is the patch's when the patch holds it where the built object
// has it: a JSON 6902 add or replace at its path (an "-" append or an
// insertion at an index: the operation's whole value is the element
// found there), a strategic-merge patch whose document holds the same
// value on the same path (list elements matched by value, or by a key such
// as name or source). Later patches are tried first, as kustomize applies
// them last.
func (c *Cluster) Relocate(fs []check.Finding) {
	if len(c.patches) == 0 {
		return
	}
	s := &patchSearch{res: c.res}
	for i := range fs {
		f := &fs[i]
		if pos, ok := c.patchPosition(s, f.Object, f.Path); ok {
			f.Position = pos
		}
		for j := range f.Related {
			r := &f.Related[j]
			if pos, ok := c.patchPosition(s, r.Object, r.Path); ok {
				r.Position = pos
			}
		}
	}
}

// PatchFinder is Relocate for objects read from a stream (`kustomize
// build DIR | mirrorlint lint -`): Position searches the patches of the
// kustomization in dir and of its bases, last applied first, for the one
// that sets the value at path to the object's value there. It keeps the
// kustomization graph, the files it loaded and the parsed patches between
// calls. Not safe for concurrent use.
type PatchFinder struct {
	g      *graph
	s      *patchSearch
	byDir  map[string][]patchRef // patches of the closure of each directory
	hasDir map[string]bool       // whether the directory holds a kustomization
}

// NewPatchFinder returns a PatchFinder that loads patch files with load.
func NewPatchFinder(load manifest.Options) *PatchFinder {
	return &PatchFinder{g: newGraph(), s: &patchSearch{res: newResolver(load, &namer{})},
		byDir: map[string][]patchRef{}, hasDir: map[string]bool{}}
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
		if has = pf.g.get(abs) != nil; has {
			kusts, _ := pf.g.closure(abs)
			pf.byDir[abs] = patchesOf(kusts)
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

// patchesOf lists the patch entries of a closure (top-level kustomization
// first), bases' patches first as kustomize applies them.
func patchesOf(kusts []*kustFile) []patchRef {
	var out []patchRef
	for i := len(kusts) - 1; i >= 0; i-- {
		k := kusts[i]
		for _, e := range k.Entries {
			if e.isRemote() || !(e.isPatch() || e.Field == "transformers" && e.Value != "") {
				continue
			}
			pr := patchRef{kust: k, e: e}
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

func (c *Cluster) patchPosition(s *patchSearch, ref check.ObjectRef, path string) (manifest.Position, bool) {
	var o *manifest.Object
	for _, x := range c.Objects {
		if string(x.Kind) == ref.Kind && x.Name == ref.Name {
			o = x
			break
		}
	}
	src := c.origins[o]
	if src == nil {
		return manifest.Position{}, false
	}
	p := manifest.ParsePath(path)
	bv, bok := p.Lookup(o.Content)
	ov, ook := p.Lookup(src.Content)
	if !bok || (ook && reflect.DeepEqual(bv, ov)) {
		return manifest.Position{}, false
	}
	names := []string{o.Name, src.Name}
	// Later patches win in kustomize, so the last one that sets the value
	// is the one to fix.
	for i := len(c.patches) - 1; i >= 0; i-- {
		if pos, ok := s.searchPatch(c.patches[i], o, names, p); ok {
			return pos, true
		}
	}
	// No patch wrote it: the origin file holds it, elsewhere (a patch
	// inserted entries before it).
	if q, ok := sameValuePath(src.Content, o.Content, p); ok {
		return src.Locate(q), true
	}
	return manifest.Position{}, false
}

// patchSearch looks for values in patches, parsing each patch file once.
type patchSearch struct {
	res  *resolver
	docs map[string][]*yaml.Node // parsed patch files by path; nil: unreadable
	data map[string][]byte       // their text
}

// documents returns the parsed documents of the patch file at abs, from the
// bytes the resolver holds (see resolver.text).
func (s *patchSearch) documents(abs string) ([]*yaml.Node, []byte) {
	if docs, ok := s.docs[abs]; ok {
		return docs, s.data[abs]
	}
	data := s.res.text(abs)
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
func (s *patchSearch) searchPatch(pr patchRef, o *manifest.Object, names []string, p manifest.Path) (manifest.Position, bool) {
	if pr.transformer() {
		return s.searchTransformers(pr, o, names, p)
	}
	if !targets(pr.e.HasTarget, pr.e.Target, o, names) {
		return manifest.Position{}, false
	}
	entryPos := manifest.Position{File: s.res.names.display(pr.kust.Path), Line: pr.e.Line, Column: pr.e.Column}
	if pr.abs == "" {
		return s.inPatchText(pr.e.InlineAt, entryPos, pr.e.HasTarget, o, names, p)
	}
	// A strategic-merge patch of a mirror kind is an object the loader
	// read: its own Locate gives the value's whole extent.
	for _, po := range s.res.objects(pr.abs) {
		if po.Kind == o.Kind && (pr.e.HasTarget || contains(names, po.Name)) && po.Node != nil {
			if n, q := pathHolding(po.Node, o.Content, p); n != nil {
				return po.Locate(q), true
			}
		}
	}
	docs, _ := s.documents(pr.abs)
	file := s.res.names.display(pr.abs)
	return inDocuments(docs, func(n *yaml.Node) manifest.Position {
		return manifest.Position{File: file, Line: n.Line, Column: n.Column}
	}, pr.e.HasTarget, o, names, p)
}

// inPatchText searches a patch written inside another file.
func (s *patchSearch) inPatchText(it inlineText, at manifest.Position, targeted bool, o *manifest.Object, names []string, p manifest.Path) (manifest.Position, bool) {
	return inDocuments(documents([]byte(it.text)), func(n *yaml.Node) manifest.Position {
		if line, col, ok := it.place(n.Line, n.Column); ok {
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
			if kind := scalar(doc, "kind"); kind != "" && kind != string(o.Kind) {
				continue
			}
			if !targeted {
				if md := mapValue(doc, "metadata"); !contains(names, scalar(md, "name")) {
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
func targets(has bool, t patchTarget, o *manifest.Object, names []string) bool {
	if !has {
		return true
	}
	return (t.Kind == "" || t.Kind == string(o.Kind)) && (t.Name == "" || contains(names, t.Name))
}

// searchTransformers searches the built-in patch transformers a
// transformers entry configures (PatchTransformer, PatchJson6902Transformer,
// PatchStrategicMergeTransformer), whose patches are written inline in the
// configuration or in files it names.
func (s *patchSearch) searchTransformers(pr patchRef, o *manifest.Object, names []string, p manifest.Path) (manifest.Position, bool) {
	docs, data := s.documents(pr.abs)
	file := s.res.names.display(pr.abs)
	dir := pr.kust.Dir // kustomize resolves a transformer's paths from the kustomization
	for i := len(docs) - 1; i >= 0; i-- {
		cfg := docs[i]
		if cfg.Kind != yaml.MappingNode {
			continue
		}
		var inline []*yaml.Node
		var paths []string
		t, has := patchTarget{}, false
		if tn := mapValue(cfg, "target"); tn != nil {
			t, has = patchTarget{Kind: scalar(tn, "kind"), Name: scalar(tn, "name")}, true
		}
		switch scalar(cfg, "kind") {
		case "PatchTransformer":
			inline = append(inline, mapValue(cfg, "patch"))
			paths = append(paths, scalar(cfg, "path"))
		case "PatchJson6902Transformer":
			inline = append(inline, mapValue(cfg, "jsonOp"))
			paths = append(paths, scalar(cfg, "path"))
		case "PatchStrategicMergeTransformer":
			inline = append(inline, mapValue(cfg, "patches"))
			for _, n := range seq(mapValue(cfg, "paths")) {
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
				if pos, ok := s.inPatchText(newInlineText(n, data), at, has, o, names, p); ok {
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
			shown := s.res.names.display(abs)
			if pos, ok := inDocuments(pdocs, func(n *yaml.Node) manifest.Position {
				return manifest.Position{File: shown, Line: n.Line, Column: n.Column}
			}, has, o, names, p); ok {
				return pos, true
			}
		}
	}
	return manifest.Position{}, false
}
