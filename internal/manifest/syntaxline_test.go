package manifest

import (
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A syntax error is placed on the line where the text goes wrong, as
// PyYAML's problem mark places it (the positions below are PyYAML's for
// the same texts): yaml.v3 names the line before it for its parser's
// errors, and the start of the enclosing collection for those that have
// one.
func TestSyntaxErrorLines(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, text, at string }{
		// A key indented between its mapping's and the nested one's.
		{"key.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    x: y\n   z: w\ndata:\n  k: v\n", "7:4"},
		// A sequence entry indented less than the ones before it.
		{"dash.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nspec:\n  mirrors:\n  - a\n - b\n", "8:2"},
		// A document without its separator after comments.
		{"doc.yaml", "# c1\n# c2\napiVersion: v1\nkind: ConfigMap\n---\nfoo\n# c\napiVersion: v1\n", "8:1"},
		// An unclosed flow mapping is placed where it opens (PyYAML's
		// context mark; its problem is the end of the stream).
		{"flow.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: {a: 1, b: 2\n", "5:1"},
		// A flow collection the stream ends in: yaml.v3 places it at the
		// empty end of the stream, PyYAML too (line 3); its last line of
		// text is where a reader fixes it.
		{"open.yaml", "kind: ImageDigestMirrorSet\nspec: [\n\n", "2:1"},
		// A scanner error keeps the line yaml.v3 gives.
		{"scan.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  list:\n  - a\n  - b\n  c\n", "9:3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := testtree.Write(t, map[string]string{c.name: c.text})
			set, err := Load([]string{filepath.Join(dir, c.name)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(set.Problems) != 1 || set.Problems[0].Code != CodeParseError {
				t.Fatalf("problems %+v", set.Problems)
			}
			if got := span(set.Problems[0].Pos); got != c.at {
				t.Errorf("at %s, want %s: %s", got, c.at, set.Problems[0].Message)
			}
		})
	}
}

// The search for the line is bounded: past its bounds the error stays at
// the line of the collection yaml.v3 names.
func TestSyntaxLineSearchBounds(t *testing.T) {
	t.Parallel()
	var text []byte
	text = append(text, "a:\n  b: 1\n"...)
	for range maxSyntaxSearch + 10 {
		text = append(text, "  c: 1\n"...)
	}
	text = append(text, " d: 1\n"...)
	if got := syntaxLine(text, 1, "did not find expected key"); got != 2 {
		t.Errorf("far from its collection: line %d, want the collection's line 2", got)
	}
	if got := syntaxLine(text[:len(text)-6], 7, "could not find expected ':'"); got != 7 {
		t.Errorf("a scanner error moved to line %d", got)
	}
}
