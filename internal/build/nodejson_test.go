package build

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// trickyDocs are documents whose values depend on how a scalar's tag and
// style are read: quoted and tagged numbers and booleans, YAML 1.1 words,
// anchors and merge keys, long and multi-line strings, keys that are not
// strings, nulls, special floats, timestamps, binary.
var trickyDocs = []string{
	"a: 1\nb: '1'\nc: \"1\"\nd: !!str 1\ne: !!int '7'\nf: 0x1F\ng: 0o17\nh: 1e3\ni: -.5\n",
	"yes: yes\nno: no\non: on\noff: off\ny: y\nn: n\nt: true\nf: False\nnul: null\ntilde: ~\nempty:\n",
	"base: &b {x: 1, y: [1, 2]}\nother: *b\nmerged:\n  <<: *b\n  y: 3\n",
	"long: " + strings.Repeat("word ", 60) + "\nspaced: 'a  b   c'\nlit: |\n  line one\n   line two\n\n  end\nfold: >-\n  folded\n  text\n",
	"1: one\n2.5: two\ntrue: three\nnull: four\n",
	"inf: .inf\nninf: -.Inf\n",
	"nan: .nan\n",
	"when: 2001-12-14t21:59:43.10-05:00\ndate: 2002-12-14\nquoted: '2002-12-14'\n",
	"bin: !!binary aGVsbG8=\n",
	"list: [a, 'b', \"c\", 1, 1.0, true, null, {k: v}, [x]]\nnested: {a: {b: {c: [1, {d: e}]}}}\n",
	"key with spaces: v\n\"quoted key\": v\n? complex\n: v\n",
	"s: \"tab\\there\\nnewline \\u00e9 \\\\ back\"\nu: \"\\U0001F600\"\n",
	"dup: 1\ndup: 2\n",
	"- a\n- b\n",
	"emptymap: {}\nemptylist: []\nemptystr: ''\n",
	"big: 123456789012345678901234567890\nneg: -9223372036854775808\nfloat: 3.14159265358979323846\n",
}

// sameJSON fails t unless nodeJSON gives what kyaml's RNode.MarshalJSON
// gives for the document in text (the same bytes, or both an error).
func sameJSON(t *testing.T, where string, n *yaml.RNode) {
	t.Helper()
	want, werr := n.MarshalJSON()
	got, gerr := nodeJSON(n.YNode())
	if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
		t.Errorf("%s:\nnodeJSON      %s (%v)\nMarshalJSON   %s (%v)", where, got, gerr, want, werr)
	}
}

// nodeJSON is MarshalJSON on every document of the repository's test
// trees and on documents written to be hard for the two to agree on.
func TestNodeJSONIsMarshalJSON(t *testing.T) {
	for i, text := range trickyDocs {
		n, err := yaml.Parse(text)
		if err != nil {
			t.Fatalf("tricky document %d does not parse: %v", i, err)
		}
		sameJSON(t, "tricky document "+text, n)
		untagKeys(n.YNode())
		sameJSON(t, "tricky document with untagged keys "+text, n)
	}
	// Nodes as kustomize's transformers make them: scalars without a tag
	// (yaml.NewScalarRNode) or of !!str, in block and flow mappings.
	for _, v := range []string{"", "1", "-1.5", "true", "null", "~", "a: b", " lead", "trail ", "#x", "*x", "1\n", "x\ny", "0x1F", "yes"} {
		for _, style := range []yaml.Style{0, yaml.FlowStyle} {
			for _, tag := range []string{"", "!!str"} {
				val := yaml.NewScalarRNode(v).YNode()
				val.Tag = tag
				m := yaml.NewRNode(&yaml.Node{Kind: yaml.MappingNode, Style: style, Content: []*yaml.Node{yaml.NewStringRNode("k").YNode(), val}})
				sameJSON(t, fmt.Sprintf("made node %q tag %q style %v", v, tag, style), m)
			}
		}
	}
	// Keys as kustomize makes them too: without a tag (it adds
	// metadata.annotations so), in block and flow mappings, with values
	// that read as strings, numbers, booleans, nulls or not at all.
	for _, k := range []string{"annotations", "a.b/c-d_e", "A1", "", "1", "-1", "1.5", ".inf", ".nan", "true", "True", "FALSE", "null", "Null", "~", "yes", "no", "on", "off", "y", "n", "<<", "a: b", "a b", " lead", "#x", "*x", "&x", "!x", "2001-12-14", "0x1F", "x\ny", "k"} {
		for _, style := range []yaml.Style{0, yaml.FlowStyle} {
			key := yaml.NewScalarRNode(k).YNode()
			key.Tag = ""
			inner := &yaml.Node{Kind: yaml.MappingNode, Style: style, Content: []*yaml.Node{key, yaml.NewStringRNode("v").YNode(), yaml.NewStringRNode("z").YNode(), yaml.NewStringRNode("w").YNode()}}
			sameJSON(t, fmt.Sprintf("made key %q style %v", k, style), yaml.NewRNode(inner))
			// Nested, where a key that is not a string makes the mapping
			// one json.Marshal refuses.
			outer := yaml.NewRNode(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{yaml.NewStringRNode("metadata").YNode(), inner}})
			sameJSON(t, fmt.Sprintf("made nested key %q style %v", k, style), outer)
		}
	}
	docs := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "bin" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if ext := filepath.Ext(path); d.IsDir() || !strings.Contains(path, "testdata") || ext != ".yaml" && ext != ".yml" && ext != ".json" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil || len(data) > 1<<20 {
			return nil
		}
		nodes, err := (&kio.ByteReader{Reader: bytes.NewReader(data), OmitReaderAnnotations: true}).Read()
		if err != nil {
			return nil // not YAML kustomize reads: nothing it would print
		}
		for _, n := range nodes {
			docs++
			sameJSON(t, path, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if docs < 500 {
		t.Fatalf("only %d documents found under the repository's testdata", docs)
	}
}

// FuzzNodeJSON: whatever document kyaml parses, nodeJSON gives what
// MarshalJSON gives.
func FuzzNodeJSON(f *testing.F) {
	for _, text := range trickyDocs {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		n, err := yaml.Parse(text)
		if err != nil || n == nil || n.YNode() == nil {
			return
		}
		if k := n.YNode().Kind; k != yaml.MappingNode && k != yaml.SequenceNode {
			return // kustomize's resources are mappings (its lists sequences)
		}
		sameJSON(t, "fuzzed document "+text, n)
		// And with its keys untagged, as kustomize makes the keys it adds.
		untagKeys(n.YNode())
		sameJSON(t, "fuzzed document with untagged keys "+text, n)
	})
}

// untagKeys clears the tag of every mapping key under n.
func untagKeys(n *yaml.Node) {
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			c.Tag = ""
		}
		untagKeys(c)
	}
}
