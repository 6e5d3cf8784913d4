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

// FuzzCacheEntry: an entry's bytes, whatever they are, decode to objects
// or to an error, never to a panic; and any YAML document's tree written
// by the entry encoder reads back equal.
func FuzzCacheEntry(f *testing.F) {
	for _, text := range []string{
		"a: &x {b: [1, 2]}\nc: *x\nd: plain # comment\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: !!str 1, t: true, n: null, f: 1.5}\n",
		"- !custom x\n- 'q'\n- \"d\"\n- |\n  lit\n",
	} {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		_, _, _, _ = decodeResult("f.yaml", "blob", data)
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil {
			return
		}
		if back, ok := roundTrip(t, &doc); ok && !reflect.DeepEqual(back, &doc) {
			t.Fatalf("the tree of %q did not read back equal", data)
		}
	})
}
