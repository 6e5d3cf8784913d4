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
	// Key is the data key a files item names before "=" ("" when it has
	// none: kustomize then takes the file's base name).
	Key string
	// Namespace is the generator entry's namespace ("" when not
	// written); NoHash is set when the entry's options disable the name
	// suffix hash kustomize appends to a generated object's name.
	Namespace string
	NoHash    bool
	Line      int
	Column    int
}

// remoteGenerators returns an entry for each generator item of field
// that reads a URL (kustomize fetches it over HTTP; mirrorlint runs
// offline): the item's place, its first URL as the value and its name as
// Generated. Builds leave the item out (Entry.NotBuilt).
func remoteGenerators(field string, val *yaml.Node, srcs []Source) []Entry {
	var out []Entry
	for _, g := range Seq(DerefNode(val)) {
		g = DerefNode(g)
		if g == nil || g.Kind != yaml.MappingNode {
			continue
		}
		for _, s := range srcs {
			if strings.Contains(s.Path, "://") && within(g, s.Line, s.Column) {
				out = append(out, Entry{Field: field, Value: s.Path, Generated: Scalar(g, "name"), Line: g.Line, Column: g.Column})
				break
			}
		}
	}
	return out
}

// within reports whether the node at line, column is one of item's
// files, envs or env values.
func within(item *yaml.Node, line, column int) bool {
	for _, sub := range []string{"files", "envs", "env"} {
		v := DerefNode(MapValue(item, sub))
		nodes := Seq(v)
		if v != nil && v.Kind == yaml.ScalarNode {
			nodes = []*yaml.Node{v}
		}
		for _, n := range nodes {
			if n = DerefNode(n); n != nil && n.Line == line && n.Column == column {
				return true
			}
		}
	}
	return false
}

// generatorSources lists the files of the entries of one generator field.
func generatorSources(field string, val *yaml.Node) []Source {
	var out []Source
	for _, g := range Seq(DerefNode(val)) {
		g = DerefNode(g)
		if g == nil || g.Kind != yaml.MappingNode {
			continue
		}
		name, ns := Scalar(g, "name"), Scalar(g, "namespace")
		noHash := Scalar(MapValue(g, "options"), "disableNameSuffixHash") == "true"
		add := func(sub string, n *yaml.Node) {
			n = DerefNode(n)
			if n == nil || n.Kind != yaml.ScalarNode || n.Value == "" {
				return
			}
			path, key := n.Value, ""
			if sub == "files" {
				// kustomize's file source: [key=]path.
				if before, after, ok := strings.Cut(path, "="); ok {
					key, path = before, after
				}
			}
			out = append(out, Source{Generator: field, Name: name, Field: sub, Path: path, Key: key,
				Namespace: ns, NoHash: noHash, Line: n.Line, Column: n.Column})
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
