package cluster

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// patchRef is one patch of a kustomization in a cluster's closure.
type patchRef struct {
	kust *kustFile
	e    entry
	abs  string // the patch file; "" for an inline patch
}

// Relocate moves findings whose value was set by a kustomize patch to the
// patch that sets it. Objects are already positioned in the file that
// defines them (see remap); a value a patch added or changed is not in
// that file, so the finding would otherwise point at the nearest part of
// the unpatched object. Best effort: strategic-merge patches must hold the
// same value at the same path, JSON 6902 operations must cover the path.
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

// PatchPosition is Relocate for an object read from a stream (`kustomize
// build DIR | mirrorlint lint -`): it searches the patches of the
// kustomization in dir and of its bases, last applied first, for the one
// that sets the value at path to the object's value there. names are the
// names a patch may target the object by (the built name, the origin
// file's name). Positions name files relative to the working directory.
// A caller with several values to place uses a PatchFinder instead, which
// keeps what it read between calls.
func PatchPosition(dir string, o *manifest.Object, names []string, path manifest.Path, load manifest.Options) (manifest.Position, bool) {
	return NewPatchFinder(load).Position(dir, o, names, path)
}

// PatchFinder answers PatchPosition for many values, keeping the
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

// Position is PatchPosition with what earlier calls read.
func (pf *PatchFinder) Position(dir string, o *manifest.Object, names []string, path manifest.Path) (manifest.Position, bool) {
	want, ok := path.Lookup(o.Content)
	if !ok {
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
		if pos, ok := pf.s.searchPatch(patches[i], o, names, path, want); ok {
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
			if e.isPatch() && !e.isRemote() {
				pr := patchRef{kust: k, e: e}
				if e.Value != "" {
					pr.abs = filepath.Clean(filepath.Join(k.Dir, e.Value))
				}
				out = append(out, pr)
			}
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
		if pos, ok := s.searchPatch(c.patches[i], o, names, p, bv); ok {
			return pos, true
		}
	}
	return manifest.Position{}, false
}

// patchSearch looks for values in patches, parsing each patch file once.
type patchSearch struct {
	res  *resolver
	docs map[string][]*yaml.Node // parsed patch files by path; nil: unreadable
}

// documents returns the parsed documents of the patch file at abs, from the
// bytes the loader read when it loaded objects from it, else from disk.
func (s *patchSearch) documents(abs string) []*yaml.Node {
	if docs, ok := s.docs[abs]; ok {
		return docs
	}
	var data []byte
	for _, po := range s.res.objects(abs) {
		if data = po.Text(); data != nil {
			break
		}
	}
	if data == nil {
		data, _ = os.ReadFile(abs)
	}
	var docs []*yaml.Node
	if data != nil {
		docs = documents(data)
	}
	if s.docs == nil {
		s.docs = map[string][]*yaml.Node{}
	}
	s.docs[abs] = docs
	return docs
}

func (s *patchSearch) searchPatch(pr patchRef, o *manifest.Object, names []string, p manifest.Path, want any) (manifest.Position, bool) {
	targeted := pr.e.Target.Kind != "" || pr.e.Target.Name != ""
	targetOK := (pr.e.Target.Kind == "" || pr.e.Target.Kind == string(o.Kind)) &&
		(pr.e.Target.Name == "" || contains(names, pr.e.Target.Name))
	if !targetOK {
		return manifest.Position{}, false
	}
	entryPos := manifest.Position{File: s.res.names.display(pr.kust.Path), Line: pr.e.Line, Column: pr.e.Column}
	var docs []*yaml.Node
	if pr.abs == "" {
		docs = documents([]byte(pr.e.Inline))
	} else {
		// Strategic-merge patches of mirror kinds are objects the loader
		// already positions precisely.
		for _, po := range s.res.objects(pr.abs) {
			if po.Kind == o.Kind && (targeted || contains(names, po.Name)) {
				if v, ok := p.Lookup(po.Content); ok && reflect.DeepEqual(v, want) {
					return po.Locate(p), true
				}
			}
		}
		docs = s.documents(pr.abs)
	}
	for _, doc := range docs {
		switch doc.Kind {
		case yaml.SequenceNode: // JSON 6902 operations
			if n := opCovering(doc, p); n != nil {
				if pr.abs == "" {
					return entryPos, true
				}
				return manifest.Position{File: s.res.names.display(pr.abs), Line: n.Line, Column: n.Column}, true
			}
		case yaml.MappingNode: // an inline strategic-merge patch
			if pr.abs != "" || scalar(doc, "kind") != string(o.Kind) {
				continue
			}
			var content map[string]any
			if doc.Decode(&content) == nil {
				if v, ok := p.Lookup(content); ok && reflect.DeepEqual(normalize(v), normalize(want)) {
					return entryPos, true
				}
			}
		}
	}
	return manifest.Position{}, false
}

// opCovering returns the node of the last add/replace operation whose path
// is p or a parent of p: the part of its value at p when it has one, else
// the operation itself.
func opCovering(ops *yaml.Node, p manifest.Path) *yaml.Node {
	for i := len(ops.Content) - 1; i >= 0; i-- {
		op := ops.Content[i]
		if kind := scalar(op, "op"); kind != "add" && kind != "replace" {
			continue
		}
		opPath := pointerPath(scalar(op, "path"))
		if opPath == nil || len(opPath) > len(p) || !reflect.DeepEqual(opPath, p[:len(opPath)]) {
			continue
		}
		if n := nodeAt(mapValue(op, "value"), p[len(opPath):]); n != nil {
			return n
		}
		return op
	}
	return nil
}

// pointerPath converts a JSON pointer ("/spec/x/0") to a Path; nil when it
// cannot name an existing element ("-" appends).
func pointerPath(ptr string) manifest.Path {
	if !strings.HasPrefix(ptr, "/") {
		return nil
	}
	var p manifest.Path
	for _, seg := range strings.Split(ptr[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		if seg == "-" {
			return nil
		}
		if n, err := strconv.Atoi(seg); err == nil {
			p = append(p, n)
		} else {
			p = append(p, seg)
		}
	}
	return p
}

func nodeAt(n *yaml.Node, p manifest.Path) *yaml.Node {
	for _, e := range p {
		if n == nil {
			return nil
		}
		switch e := e.(type) {
		case string:
			n = mapValue(n, e)
		case int:
			if n.Kind != yaml.SequenceNode || e < 0 || e >= len(n.Content) {
				return nil
			}
			n = n.Content[e]
		}
	}
	return n
}

// normalize makes YAML-decoded and loader-decoded values comparable by
// going through their string forms for scalars.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = normalize(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalize(x)
		}
		return out
	case nil:
		return nil
	}
	return strings.TrimSpace(yamlString(v))
}

func yamlString(v any) string {
	b, _ := yaml.Marshal(v)
	return string(b)
}

// documents parses every YAML document in data, skipping what does not parse.
func documents(data []byte) []*yaml.Node {
	var out []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err != nil { // io.EOF, or the rest does not parse
			return out
		}
		if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
			out = append(out, n.Content[0])
		}
	}
}
