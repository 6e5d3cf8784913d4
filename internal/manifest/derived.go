package manifest

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Derived returns the object another input creates, such as the
// ImageDigestMirrorSet openshift-install writes from install-config.yaml:
// data is the object's YAML (one document), decoded and typed as the
// loader decodes a file, but placed in file, the input's file, each node
// where place says the value it came from is written (place is given the
// node's path; a zero Position keeps the parent's place). Positions have
// no ends, since the text they point at is not the object's.
func Derived(data []byte, file string, at Position, place func(Path) Position) (*Object, error) {
	res := parseFile(file, data, UnmodelledNone)
	if len(res.problems) > 0 {
		return nil, fmt.Errorf("%s", res.problems[0].Message)
	}
	if len(res.objects) != 1 {
		return nil, fmt.Errorf("derived object: %d objects in the text", len(res.objects))
	}
	o := res.objects[0]
	o.File, o.src, o.marks = file, nil, nil
	o.spans = nil
	o.placeNodes(o.Node, nil, at, place)
	return o, nil
}

// placeNodes places n and its children. A place in another file than the
// object's (the hub's mirror ConfigMap an AgentServiceConfig names) is
// kept as the node's span, so that a finding there names that file.
func (o *Object) placeNodes(n *yaml.Node, p Path, parent Position, place func(Path) Position) {
	if n == nil {
		return
	}
	pos := parent
	if got := place(p); got.Line > 0 {
		pos = got
	}
	n.Line, n.Column = pos.Line, pos.Column
	if pos.File != "" && pos.File != o.File {
		if o.spans == nil {
			o.spans = map[*yaml.Node]nodeSpan{}
		}
		o.spans[n] = nodeSpan{file: pos.File}
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			child := p.Child(n.Content[i].Value)
			o.placeNodes(n.Content[i], child, pos, place)
			o.placeNodes(n.Content[i+1], child, pos, place)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			o.placeNodes(c, p.Child(i), pos, place)
		}
	}
}
