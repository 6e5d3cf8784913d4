package manifest

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzLoad feeds arbitrary bytes as one file: loading must never panic
// (a recovered panic shows up as an "internal-error" Problem, which fails
// the target too) and every position must lie inside the file.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(goodIDMS))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("{\"apiVersion\": \"config.openshift.io/v1\", \"kind\": \"Image\", \"spec\": {\"additionalTrustedCA\": []}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := LoadReader("fuzz.yaml", bytes.NewReader(data), Options{})
		if err != nil {
			t.Fatal(err)
		}
		lines := newSource(data).lines()
		check := func(what string, p Position) {
			if p.Line < 0 || p.Line > lines || p.EndLine > lines || (p.EndLine != 0 && p.EndLine < p.Line) || p.Column < 0 {
				t.Fatalf("%s: position %s (end %d:%d) outside a %d-line file", what, p, p.EndLine, p.EndColumn, lines)
			}
		}
		for _, p := range s.Problems {
			if p.Code == "internal-error" {
				t.Fatalf("panic: %s", p.Message)
			}
			check("problem "+p.Code, p.Pos)
		}
		for _, o := range s.Objects {
			check(o.Ref(), o.Position())
			for _, p := range contentPaths(o.Content, nil, 200) {
				check(o.Ref()+" "+p.String(), o.Locate(p))
				check(o.Ref()+" key "+p.String(), o.LocateKey(p))
			}
			check("missing", o.Locate(Path{"spec", "no", 3, "such"}))
		}
	})
}

// spansFile tells whether some value of a generated object sits in file
// (a source CR).
func spansFile(o *Object, file string) bool {
	for _, s := range o.spans {
		if s.file == file {
			return true
		}
	}
	return false
}

// contentPaths lists up to max paths present in v.
func contentPaths(v any, prefix Path, max int) []Path {
	var out []Path
	var walk func(v any, p Path)
	walk = func(v any, p Path) {
		if len(out) >= max {
			return
		}
		out = append(out, p)
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				walk(c, p.Child(k))
			}
		case []any:
			for i, c := range v {
				walk(c, p.Child(i))
			}
		}
	}
	walk(v, prefix)
	return out
}

func TestContentPathsLocateEverywhere(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata"}, Options{})
	for _, o := range s.Objects {
		for _, p := range contentPaths(o.Content, nil, 1000) {
			if pos := o.Locate(p); pos.Line == 0 || pos.File != o.File && !spansFile(o, pos.File) {
				t.Errorf("%s: %s not located", o.Ref(), p)
			}
		}
	}
	if !strings.Contains(refs(s)[0], "testdata/") {
		t.Errorf("%v", refs(s))
	}
}
