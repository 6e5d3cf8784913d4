package manifest

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Held reads the manifests a YAML string of another object holds (a
// ConfigMap value whose manifests a component applies: a ZTP spoke's
// extra manifests) as the loader reads a file: every document's objects,
// decoded and typed, of the kinds keep says, with the problems found.
// Each object and problem is placed in file, the holding object's file,
// where place says the text's line and column are written there (see
// package embedded): a finding on a value points at its line in the
// ConfigMap. Positions have no ends, since the file's text is not the
// objects'.
func Held(file, text string, keep Unmodelled, place func(line, col int) Position) ([]*Object, []Problem) {
	res := parseFile(file, []byte(text), keep)
	seen := map[*yaml.Node]bool{}
	var move func(n *yaml.Node)
	move = func(n *yaml.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if n.Line > 0 {
			p := place(n.Line, n.Column)
			n.Line, n.Column = p.Line, p.Column
		}
		for _, c := range n.Content {
			move(c)
		}
		move(n.Alias)
	}
	for _, o := range res.objects {
		o.File, o.src, o.marks, o.spans = file, nil, nil, nil
		move(o.Node)
	}
	at := func(p Position) Position {
		if p.Line == 0 {
			return Position{File: file}
		}
		q := place(p.Line, p.Column)
		q.File = file
		return q
	}
	for i := range res.problems {
		pr := &res.problems[i]
		pr.Pos = at(pr.Pos)
		for j := range pr.Related {
			pr.Related[j] = at(pr.Related[j])
		}
	}
	return res.objects, res.problems
}
