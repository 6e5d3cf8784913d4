package manifest

import "sigs.k8s.io/kustomize/kyaml/yaml"

// PositionOf returns the position of n, a node of o's tree, with its end
// when it can be told: for findings about a node Locate cannot address,
// such as the earlier of two keys with the same name (a path names the
// last one).
func (o *Object) PositionOf(n *yaml.Node) Position { return o.nodePos(n) }
