package build

import (
	"encoding/json"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// nodeJSON is the JSON kyaml's RNode.MarshalJSON gives for n, which is what
// `kustomize build` prints a resource from: the node's plain values (a
// mapping's keys sorted) as json.Marshal writes them. MarshalJSON gets the
// values by writing the node as YAML and reading that text back; yaml.v3
// decodes the node itself to the same values (the text is made to read
// back as the node), and that write and read were a third of a fleet
// overlay's build. Only a tree of the core schema's tags with string keys
// and without anchors, aliases or merge keys is decoded directly: with
// those the written text can read back otherwise (a custom tag, an anchor
// or a null on an empty key), and MarshalJSON itself is asked. Keys
// without a tag are taken (stringKey): the keys kustomize adds would
// otherwise send every resource a transformer touched the slow way.
// TestNodeJSONIsMarshalJSON and FuzzNodeJSON hold the two equal.
func nodeJSON(n *yaml.Node) ([]byte, error) {
	if n == nil {
		return []byte("null"), nil
	}
	if !plainTree(n, 0) {
		return yaml.NewRNode(n).MarshalJSON()
	}
	if n.Kind == yaml.SequenceNode {
		var a []any
		if err := n.Decode(&a); err != nil {
			return nil, err
		}
		return json.Marshal(a)
	}
	m := map[string]any{}
	if err := n.Decode(&m); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// coreTags are the tags of YAML's core schema that decoding resolves
// alike from a node and from its text.
var coreTags = map[string]bool{"": true, "!!str": true, "!!int": true, "!!float": true, "!!bool": true, "!!null": true, "!!map": true, "!!seq": true}

// plainTree reports whether the tree at n holds only nodes of core tags,
// string keys, no anchor, alias or merge key, and is not deeper than a
// resource needs to be.
func plainTree(n *yaml.Node, depth int) bool {
	if depth > 1000 || n.Anchor != "" || n.Kind == yaml.AliasNode || !coreTags[n.Tag] {
		return false
	}
	if n.Kind == yaml.ScalarNode && n.Value == "" && n.Tag != "!!str" {
		// An empty null: decoded as null, but written as '' where a plain
		// empty scalar cannot stand (in flow style), read back a string.
		return false
	}
	for i, c := range n.Content {
		// A key of another tag (a number, a null, an empty key) or a
		// merge key reads back from the text as another key.
		if n.Kind == yaml.MappingNode && i%2 == 0 && !stringKey(c) {
			return false
		}
		if !plainTree(c, depth+1) {
			return false
		}
	}
	return true
}

// stringKey reports whether a mapping key is decoded as the text written
// from it reads back: a scalar of !!str or without a tag (as kustomize
// makes the keys it adds, metadata.annotations when a transformer records
// itself), which the node and the text resolve alike, as they do a
// value's; not a merge key.
func stringKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && (k.Tag == "!!str" || k.Tag == "") && k.Value != "<<"
}
