package trace

import (
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// The objects a PolicyGenerator makes from a kustomization (package build
// builds the directory its manifest path names) are read node by node, each
// node at the line of the value it holds (package ztp), rather than as
// objects placed in their files with findings moved later. Placer gives
// every node of such a built object the place a finding on its value
// would get (Remap, Relocation.Place): the origin file's node when the
// built value is the file's, the patch that wrote it when one did (or
// restates it, see restatable), else the nearest node of the origin file
// (what a name prefix, a label or a patch no search finds changed).

// Placer places the nodes of the objects one in-process build made. Not
// safe for concurrent use.
type Placer struct {
	// Dir is the built directory, absolute; origin paths are relative to
	// it, as kustomize writes them.
	Dir string
	// Read reads an origin file, confined as the build's reads are.
	Read func(abs string) ([]byte, error)
	// Load reads the patch files (its Access confines them).
	Load manifest.Options

	docs    map[string][]*yaml.Node // origin files' documents, by path
	patches *PatchFinder
}

// spot is where a node is placed.
type spot struct {
	file      string
	line, col int
}

// maxPlaceDepth bounds the walk (built objects come from parsed YAML,
// which the access layer already bounds).
const maxPlaceDepth = 128

// Place sets the line and column of every node of built, one object of the
// build whose origin path is origin ("" when kustomize names none: a
// generated object), and returns the file of each node placed, by
// absolute path. A node left unplaced is not in the map.
func (pl *Placer) Place(built *yaml.Node, origin string) map[*yaml.Node]string {
	files := map[*yaml.Node]string{}
	if origin == "" || built == nil || built.Kind != yaml.MappingNode {
		return files
	}
	abs := filepath.Clean(filepath.Join(pl.Dir, filepath.FromSlash(origin)))
	src := pl.source(abs, built)
	if src == nil {
		return files
	}
	var content map[string]any
	if built.Decode(&content) != nil {
		content = nil
	}
	o := &manifest.Object{Kind: manifest.Kind(kustomization.Scalar(built, "kind")), Name: name(built), Content: content}
	w := &placing{pl: pl, files: files, file: abs, obj: o, names: []string{o.Name, name(src)}}
	w.node(built, src, nil, spot{abs, src.Line, src.Column}, 0)
	return files
}

func name(n *yaml.Node) string {
	return kustomization.Scalar(kustomization.MapValue(n, "metadata"), "name")
}

// source finds, in the origin file, the document the built object was made
// from (SourceObject's choice, by kind and name), the items of a List
// included, as kustomize reads them.
func (pl *Placer) source(abs string, built *yaml.Node) *yaml.Node {
	docs, ok := pl.docs[abs]
	if !ok {
		if data, err := pl.Read(abs); err == nil {
			for _, d := range documents(data) {
				d = kustomization.DerefNode(d)
				if d == nil || d.Kind != yaml.MappingNode {
					continue
				}
				items := kustomization.Seq(kustomization.DerefNode(kustomization.MapValue(d, "items")))
				if items != nil && strings.HasSuffix(kustomization.Scalar(d, "kind"), "List") {
					for _, it := range items {
						if it = kustomization.DerefNode(it); it != nil && it.Kind == yaml.MappingNode {
							docs = append(docs, it)
						}
					}
					continue
				}
				docs = append(docs, d)
			}
		}
		if pl.docs == nil {
			pl.docs = map[string][]*yaml.Node{}
		}
		pl.docs[abs] = docs
	}
	cands := make([]*manifest.Object, len(docs))
	for i, d := range docs {
		cands[i] = &manifest.Object{Kind: manifest.Kind(kustomization.Scalar(d, "kind")), Name: name(d), Doc: i}
	}
	want := &manifest.Object{Kind: manifest.Kind(kustomization.Scalar(built, "kind")), Name: name(built)}
	if c := SourceObject(cands, want, -1); c != nil {
		return docs[c.Doc]
	}
	return nil
}

// placing is the walk over one built object.
type placing struct {
	pl    *Placer
	files map[*yaml.Node]string
	file  string           // the origin file
	obj   *manifest.Object // the built object, for the patch search
	names []string         // the names a patch may target it by
}

func (w *placing) set(n *yaml.Node, at spot) {
	if at.line == 0 {
		return
	}
	n.Line, n.Column = at.line, at.col
	w.files[n] = at.file
}

// node places b, the built node at p, whose counterpart in the origin
// file is s (nil when the file holds none); parent is where its parent
// was placed.
func (w *placing) node(b, s *yaml.Node, p manifest.Path, parent spot, depth int) {
	s = kustomization.DerefNode(s)
	here := parent
	if s != nil && s.Kind == b.Kind && (b.Kind != yaml.ScalarNode || s.Value == b.Value) {
		here = spot{w.file, s.Line, s.Column}
		if b.Kind == yaml.ScalarNode {
			// The file's own text: its style says where the value ends.
			b.Style = s.Style
			if restatable(p) {
				if at, ok := w.patch(p); ok {
					here = at
				}
			}
		}
	} else if at, ok := w.patch(p); ok {
		here = at
	} else if s != nil {
		here = spot{w.file, s.Line, s.Column}
	}
	w.set(b, here)
	if depth >= maxPlaceDepth {
		return
	}
	switch b.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(b.Content); i += 2 {
			k, v := b.Content[i], b.Content[i+1]
			var sk, sv *yaml.Node
			if s != nil && s.Kind == yaml.MappingNode {
				sk, sv = mapEntry(s, k.Value)
			}
			w.node(v, sv, p.Child(k.Value), here, depth+1)
			if sk != nil {
				w.set(k, spot{w.file, sk.Line, sk.Column})
			} else if f, ok := w.files[v]; ok {
				w.set(k, spot{f, v.Line, v.Column})
			}
		}
	case yaml.SequenceNode:
		for i, el := range b.Content {
			var se *yaml.Node
			if s != nil && s.Kind == yaml.SequenceNode {
				se = element(s, i, el)
			}
			w.node(el, se, p.Child(i), here, depth+1)
		}
	}
}

// patch is where a patch of the build writes the value at p.
func (w *placing) patch(p manifest.Path) (spot, bool) {
	if len(p) == 0 || w.obj.Content == nil {
		return spot{}, false
	}
	if w.pl.patches == nil {
		load := w.pl.Load
		load.Kustomize = nil // patches are read, never built
		w.pl.patches = NewPatchFinder(load)
	}
	at, ok := w.pl.patches.Position(w.pl.Dir, w.obj, w.names, p)
	if !ok || at.Line == 0 {
		return spot{}, false
	}
	file := filepath.FromSlash(at.File)
	if !filepath.IsAbs(file) {
		abs, err := filepath.Abs(file)
		if err != nil {
			return spot{}, false
		}
		file = abs
	}
	return spot{file, at.Line, at.Column}, true
}

// mapEntry is the key and value of key in mapping m.
func mapEntry(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if c := m.Content[i]; c.Kind == yaml.ScalarNode && c.Value == key {
			k, v = c, m.Content[i+1]
		}
	}
	return k, v
}

// element finds the element of the origin file's sequence seq that the
// built element el at index i stands for: a scalar by its value (a patch
// may have inserted entries before it), a mapping by a key identifying it
// (name, source…), else the element at the same index.
func element(seq *yaml.Node, i int, el *yaml.Node) *yaml.Node {
	at := func(j int) *yaml.Node {
		if j < len(seq.Content) {
			return kustomization.DerefNode(seq.Content[j])
		}
		return nil
	}
	switch el.Kind {
	case yaml.ScalarNode:
		if c := at(i); c != nil && c.Kind == yaml.ScalarNode && c.Value == el.Value {
			return c
		}
		for j := range seq.Content {
			if c := at(j); c != nil && c.Kind == yaml.ScalarNode && c.Value == el.Value {
				return c
			}
		}
		return nil
	case yaml.MappingNode:
		for _, key := range identityKeys {
			v := kustomization.MapValue(el, key)
			if v == nil || v.Kind != yaml.ScalarNode {
				continue
			}
			for j := range seq.Content {
				if c := at(j); c != nil {
					if cv := kustomization.DerefNode(kustomization.MapValue(c, key)); cv != nil && cv.Kind == yaml.ScalarNode && cv.Value == v.Value {
						return c
					}
				}
			}
		}
	}
	return at(i)
}
