package embedded

import (
	"encoding/json"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// scalar parses src and returns the value node of its top-level key "v".
func scalar(t testing.TB, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Skip(err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode || len(doc.Content[0].Content) < 2 {
		t.Skip("no mapping")
	}
	return doc.Content[0].Content[1]
}

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		off       int // an offset of the value
		line, col int
	}{
		{"plain", "v: abc def\n", 4, 1, 8},
		{"single quoted with doubled quote", "v: 'it''s x'\n", 5, 1, 11},
		{"double quoted escape", `v: "a\"b\u0041c"` + "\n", 4, 1, 15},
		{"literal block", "v: |\n  ab\n  cd\n", 4, 3, 4},
		{"literal block blank line", "v: |\n  ab\n\n  cd\n", 4, 4, 3},
		{"folded quoted lines", "v: 'ab\n  cd'\n", 3, 2, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := scalar(t, tc.src)
			tx := Of([]byte(tc.src), n)
			if l, c := tx.Pos(tc.off); l != tc.line || c != tc.col {
				t.Errorf("offset %d of %q: %d:%d, want %d:%d", tc.off, n.Value, l, c, tc.line, tc.col)
			}
		})
	}
}

// At places a line and column of a YAML document held in a literal block:
// the block's indentation is added, a character after a wide one is still
// the file's (byte) columns follow, and a place past the value answers its end.
func TestAt(t *testing.T) {
	src := "data:\n  v: |\n    kind: ImageDigestMirrorSet\n    metadata:\n      name: é-x\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	n := doc.Content[0].Content[1].Content[1]
	tx := Of([]byte(src), n)
	for _, tc := range []struct{ line, col, wantLine, wantCol int }{
		{1, 1, 3, 5},   // kind
		{1, 7, 3, 11},  // ImageDigestMirrorSet
		{3, 3, 5, 7},   // name
		{3, 11, 5, 16}, // x: one character after é in the value, two bytes in the file
		{9, 1, 6, 5},   // past the end: the end of the value
	} {
		if l, c := tx.At(tc.line, tc.col); l != tc.wantLine || c != tc.wantCol {
			t.Errorf("At(%d, %d) = %d:%d, want %d:%d", tc.line, tc.col, l, c, tc.wantLine, tc.wantCol)
		}
	}
}

func TestJSONPaths(t *testing.T) {
	doc := `{"a": {"b": [1, {"c": "x"}]}, "a2": null}`
	spans, err := JSONPaths(doc)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]Span{
		"":         {-1, 0},
		"a":        {1, 6},
		"a.b[1].c": {17, 22},
		"a2":       {30, 36},
	} {
		if got, ok := spans[path]; !ok || got != want {
			t.Errorf("%s: %+v, want %+v", path, got, want)
		}
	}
	_, err = JSONPaths(`{"a": [1 2]}`)
	if se, ok := err.(*SyntaxError); !ok || se.Offset != 9 {
		t.Errorf("syntax error %v, want one at offset 9", err)
	}
}

// FuzzJSONPaths holds the scanner to encoding/json: it accepts exactly the
// documents json.Valid accepts, and every span is inside the document.
func FuzzJSONPaths(f *testing.F) {
	for _, s := range []string{`{}`, `[1,2]`, `{"a":[{"b":"\u00e9\""}]}`, `{"a":1,}`, `"x"`, `-1.5e3`, ` {"a" : true } `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		spans, err := JSONPaths(doc)
		if (err == nil) != json.Valid([]byte(doc)) {
			t.Fatalf("JSONPaths error %v, json.Valid %v for %q", err, json.Valid([]byte(doc)), doc)
		}
		for p, sp := range spans {
			if sp.Value < 0 || sp.Value > len(doc) || sp.Key >= len(doc) {
				t.Fatalf("span %s %+v outside %q", p, sp, doc)
			}
		}
	})
}

// FuzzOf: any scalar maps to positions inside the file, and never panics.
func FuzzOf(f *testing.F) {
	for _, s := range []string{"v: abc\n", "v: 'a''b'\n", `v: "a\tb\x41"`, "v: |\n  {\n   \"a\": 1}\n", "v: >\n  a\n  b\n", "v: 'a\n\n  b'\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n := scalar(t, src)
		tx := Of([]byte(src), n)
		lines := strings.Count(src, "\n") + 1
		for off := 0; off <= len(tx.Value); off++ {
			if l, c := tx.Pos(off); l < 1 || l > max(lines, n.Line) || c < 1 {
				t.Fatalf("offset %d of %q at %d:%d, outside the file", off, tx.Value, l, c)
			}
		}
	})
}
