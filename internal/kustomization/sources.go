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

// generatorSources lists the files of the entries of one generator field,
// and an entry for each item that reads a URL (kustomize fetches it over
// HTTP; mirrorlint runs offline): the item's place, its first URL as the
// value and its name as Generated. Builds leave such an item out
// (Entry.NotBuilt).
func generatorSources(field string, val *yaml.Node) (out []Source, remote []Entry) {
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
		first := len(out)
		for _, sub := range []string{"files", "envs"} {
			for _, n := range Seq(DerefNode(MapValue(g, sub))) {
				add(sub, n)
			}
		}
		add("env", MapValue(g, "env"))
		for _, src := range out[first:] {
			if strings.Contains(src.Path, "://") {
				remote = append(remote, Entry{Field: field, Value: src.Path, Generated: name, Line: g.Line, Column: g.Column})
				break
			}
		}
	}
	return out, remote
}
