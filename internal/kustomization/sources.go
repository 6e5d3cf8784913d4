package kustomization

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Source is one file a configMapGenerator or secretGenerator entry reads
// into the object it generates, kept with the line of the item that names
// it: kustomize's error for a file it cannot read names neither the
// generator nor the line.
type Source struct {
	Generator string // "configMapGenerator" or "secretGenerator"
	Name      string // the generated object's name, "" when not written
	Field     string // "files", "envs" or the legacy "env"
	Path      string // the file as written, relative to the kustomization, without a key= prefix
	Line      int
	Column    int
}

// generatorSources lists the files of the entries of one generator field.
func generatorSources(field string, val *yaml.Node) []Source {
	var out []Source
	for _, g := range Seq(DerefNode(val)) {
		g = DerefNode(g)
		if g == nil || g.Kind != yaml.MappingNode {
			continue
		}
		name := Scalar(g, "name")
		add := func(sub string, n *yaml.Node) {
			n = DerefNode(n)
			if n == nil || n.Kind != yaml.ScalarNode || n.Value == "" {
				return
			}
			path := n.Value
			if sub == "files" {
				// kustomize's file source: [key=]path.
				if _, after, ok := strings.Cut(path, "="); ok {
					path = after
				}
			}
			out = append(out, Source{Generator: field, Name: name, Field: sub, Path: path, Line: n.Line, Column: n.Column})
		}
		for _, sub := range []string{"files", "envs"} {
			for _, n := range Seq(DerefNode(MapValue(g, sub))) {
				add(sub, n)
			}
		}
		add("env", MapValue(g, "env"))
	}
	return out
}
