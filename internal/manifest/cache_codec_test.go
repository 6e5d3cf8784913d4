package manifest

import (
	"reflect"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// roundTrip writes a tree with the entry encoder and reads it back.
func roundTrip(t *testing.T, root *yaml.Node) (*yaml.Node, bool) {
	t.Helper()
	e := &encoder{}
	if !e.node(root) {
		return nil, false
	}
	d := &decoder{b: e.b}
	n := d.node()
	if d.err != nil || len(d.b) != 0 {
		t.Fatalf("an encoded tree does not decode: %v, %d bytes left", d.err, len(d.b))
	}
	return n, true
}

// The tree writer restores a tree with aliases exactly (the alias points at
// the restored anchor), refuses what it cannot restore (an alias outside
// the tree, a node reached twice beside aliases, a tree deeper than the
// decoder reads) and writes a tree without aliases in one pass.
func TestTreeEncoding(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a: &x {b: [1, 2]}\nc: *x\nd: plain # comment\n"), &doc); err != nil {
		t.Fatal(err)
	}
	back, ok := roundTrip(t, &doc)
	if !ok {
		t.Fatal("a parsed tree with an alias was refused")
	}
	if !reflect.DeepEqual(back, &doc) {
		t.Fatal("the tree with an alias did not read back equal")
	}
	m := back.Content[0]
	if m.Content[3].Alias != m.Content[1] {
		t.Error("the restored alias does not point at the restored anchor")
	}

	var plain yaml.Node
	if err := yaml.Unmarshal([]byte("k: [a, {b: c}]\n"), &plain); err != nil {
		t.Fatal(err)
	}
	if back, ok := roundTrip(t, &plain); !ok || !reflect.DeepEqual(back, &plain) {
		t.Fatal("a tree without aliases did not read back equal")
	}

	outside := &yaml.Node{Kind: yaml.ScalarNode, Value: "v", Anchor: "o"}
	if _, ok := roundTrip(t, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{Kind: yaml.AliasNode, Alias: outside}}}); ok {
		t.Error("an alias pointing outside the tree was written")
	}
	anchor := &yaml.Node{Kind: yaml.ScalarNode, Value: "v", Anchor: "a"}
	shared := &yaml.Node{Kind: yaml.ScalarNode, Value: "s"}
	twice := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{shared, shared, anchor, {Kind: yaml.AliasNode, Alias: anchor}}}
	if _, ok := roundTrip(t, twice); ok {
		t.Error("a node reached twice beside an alias was written: the alias would point at the wrong node")
	}
	deep := &yaml.Node{Kind: yaml.ScalarNode, Value: "leaf"}
	for range maxCacheDepth + 1 {
		deep = &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{deep}}
	}
	if _, ok := roundTrip(t, deep); ok {
		t.Error("a tree deeper than the decoder reads was written")
	}
}
