package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRealPathResolvesSymlinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real := filepath.Join(dir, "real.yaml")
	if err := os.WriteFile(real, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	want, _ := filepath.EvalSymlinks(real)
	if got := RealPath(link); got != want {
		t.Errorf("RealPath(link) = %q, want %q", got, want)
	}
	if got := RealPath(filepath.Join(dir, "missing.yaml")); got != filepath.Join(dir, "missing.yaml") {
		t.Errorf("a missing file keeps its absolute path, got %q", got)
	}
}

func TestPathLookup(t *testing.T) {
	t.Parallel()
	content := map[string]any{"spec": map[string]any{"imageDigestMirrors": []any{
		map[string]any{"source": "quay.io/a", "mirrors": []any{"m.io/a"}},
	}}}
	if v, ok := ParsePath("spec.imageDigestMirrors[0].mirrors[0]").Lookup(content); !ok || v != "m.io/a" {
		t.Errorf("Lookup = %v, %v", v, ok)
	}
	for _, p := range []string{"spec.imageDigestMirrors[1]", "spec.nope", "spec.imageDigestMirrors.source"} {
		if _, ok := ParsePath(p).Lookup(content); ok {
			t.Errorf("Lookup(%s) found a value", p)
		}
	}
}

func TestWithin(t *testing.T) {
	t.Parallel()
	cases := []struct {
		dir, p, rel string
		ok          bool
	}{
		{"/a/b", "/a/b", ".", true},
		{"/a/b", "/a/b/c/d.yaml", "c/d.yaml", true},
		{"/a/b", "/a/b/..foo/x.yaml", "..foo/x.yaml", true},
		{"/a/b", "/a/bc/x.yaml", "", false},
		{"/a/b", "/a", "", false},
		{"a", "a/x", "x", true},
	}
	for _, c := range cases {
		rel, ok := Within(filepath.FromSlash(c.dir), filepath.FromSlash(c.p))
		if ok != c.ok || rel != filepath.FromSlash(c.rel) {
			t.Errorf("Within(%q, %q) = %q, %v; want %q, %v", c.dir, c.p, rel, ok, c.rel, c.ok)
		}
	}
}
