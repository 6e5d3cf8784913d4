package manifest

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func mustLoad(t testing.TB, paths []string, opts Options) *Set {
	t.Helper()
	s, err := Load(paths, opts)
	if err != nil {
		t.Fatalf("Load(%v): %v", paths, err)
	}
	return s
}

func findObject(t testing.TB, s *Set, ref string) *Object {
	t.Helper()
	for _, o := range s.Objects {
		if o.Ref() == ref {
			return o
		}
	}
	t.Fatalf("object %s not found; have %v", ref, refs(s))
	return nil
}

func refs(s *Set) []string {
	var out []string
	for _, o := range s.Objects {
		out = append(out, fmt.Sprintf("%s@%s:%d", o.Ref(), o.File, o.Node.Line))
	}
	return out
}

func problemsWith(s *Set, code string) []Problem {
	var out []Problem
	for _, p := range s.Problems {
		if p.Code == code {
			out = append(out, p)
		}
	}
	return out
}

// span renders a position compactly for table tests: "13:13-13:22".
func span(p Position) string {
	if p.EndLine == 0 {
		return fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	return fmt.Sprintf("%d:%d-%d:%d", p.Line, p.Column, p.EndLine, p.EndColumn)
}

func readFixture(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const goodIDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: good
spec:
  imageDigestMirrors:
  - source: quay.io/good
    mirrors: [m.example.com/good]
`

// assertGoodLoaded checks that the good file next to a hostile one loaded.
func assertGoodLoaded(t *testing.T, s *Set) {
	t.Helper()
	o := findObject(t, s, "ImageDigestMirrorSet/good")
	if !o.Known || o.IDMS == nil || o.IDMS.Spec.ImageDigestMirrors[0].Source != "quay.io/good" {
		t.Errorf("good object not decoded: %+v", o)
	}
	if !strings.HasSuffix(o.File, "good.yaml") {
		t.Errorf("good object from %s", o.File)
	}
}
