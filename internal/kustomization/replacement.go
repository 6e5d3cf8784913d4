package kustomization

import (
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// ReplacementFor finds the replacements entry of k whose source is
// kind/name (kind unset in the entry matches any): the entry kustomize's
// "nothing selected by" refers to. text reads a file (the access layer's,
// read once); an entry kept in a file of its own (path:) is matched by
// that file's source. ok is false when no entry matches.
func (k *File) ReplacementFor(kind, name string, text func(abs string) []byte) (line, col int, ok bool) {
	var doc yaml.Node
	if yaml.Unmarshal(text(k.Path), &doc) != nil || len(doc.Content) == 0 {
		return 0, 0, false
	}
	for _, item := range Seq(MapValue(doc.Content[0], "replacements")) {
		source := MapValue(item, "source")
		if p := Scalar(item, "path"); p != "" && filepath.IsLocal(p) {
			var ext yaml.Node
			if yaml.Unmarshal(text(filepath.Join(k.Dir, filepath.FromSlash(p))), &ext) == nil && len(ext.Content) > 0 {
				source = MapValue(ext.Content[0], "source")
			}
		}
		if source == nil || Scalar(source, "name") != name {
			continue
		}
		if k := Scalar(source, "kind"); k == "" || k == kind {
			return item.Line, item.Column, true
		}
	}
	return 0, 0, false
}
