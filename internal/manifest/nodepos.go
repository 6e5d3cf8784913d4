package manifest

import (
	"slices"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// PositionOf returns the position of n, a node of o's tree, with its end
// when it can be told: for findings about a node Locate cannot address,
// such as the earlier of two keys with the same name (a path names the
// last one).
func (o *Object) PositionOf(n *yaml.Node) Position { return o.nodePos(n) }

// ValueNode returns the node of the value at p, nil when p does not exist:
// for callers that read text embedded in a scalar (a JSON or TOML document
// in a string) and place it in the file from the scalar's own node.
func (o *Object) ValueNode(p Path) *yaml.Node {
	if _, val, found := o.walk(p); found {
		return val
	}
	return nil
}

// OtherFiles lists, sorted, the files other than File that some of o's
// values sit in: the source CRs a generator made o from. An edit to one of
// them changes o as much as an edit to File does.
func (o *Object) OtherFiles() []string {
	var out []string
	for _, s := range o.spans {
		if s.file != o.File && !slices.Contains(out, s.file) {
			out = append(out, s.file)
		}
	}
	slices.Sort(out)
	return out
}
