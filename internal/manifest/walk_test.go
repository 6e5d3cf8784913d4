package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

func TestExcludes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"a/x.yaml", "vendor/y.yaml", "b/vendor/z.yaml", "c/skip.tmpl.yaml", "d/e/f.yaml", "d/f.yaml", "g/keep.yml", "g/notes.txt", ".git/objects/h.yaml", "k.JSON"} {
		testtree.WriteFile(t, filepath.Join(dir, f), strings.Replace(goodIDMS, "name: good", "name: "+strings.NewReplacer("/", "-", ".", "-").Replace(f), 1))
	}
	s := mustLoad(t, []string{dir}, Options{Exclude: []string{"vendor", "*.tmpl.yaml", "d/**/f.yaml"}})
	var got []string
	for _, f := range s.Files {
		got = append(got, strings.TrimPrefix(f, filepath.ToSlash(dir)+"/"))
	}
	want := []string{"a/x.yaml", "g/keep.yml", "k.JSON"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	// An explicit file is matched as given.
	s = mustLoad(t, []string{filepath.Join(dir, "vendor/y.yaml"), filepath.Join(dir, "g/notes.txt")}, Options{Exclude: []string{"vendor"}})
	if len(s.Files) != 1 || !strings.HasSuffix(s.Files[0], "notes.txt") {
		t.Errorf("explicit files %v", s.Files)
	}
}

func TestMatchExclude(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pat, rel string
		want     bool
	}{
		{"vendor", "vendor", true},
		{"vendor", "a/vendor", true},
		{"*.j2", "x/y.yaml.j2", true},
		{"charts/*", "charts/x", true},
		{"charts/*", "a/charts/x", false},
		{"**/testdata", "a/b/testdata", true},
		{"**/testdata", "testdata", true},
		{"a/**", "a/b/c", true},
		{"a/**/c.yaml", "a/c.yaml", true},
		{"a/**/c.yaml", "a/x/y/c.yaml", true},
		{"a/**/c.yaml", "b/c.yaml", false},
		{"[", "x", false},
	} {
		if got := matchExclude(c.pat, c.rel); got != c.want {
			t.Errorf("matchExclude(%q, %q) = %v", c.pat, c.rel, got)
		}
	}
}

func TestSymlinks(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	testtree.WriteFile(t, filepath.Join(root, "good.yaml"), goodIDMS)
	testtree.WriteFile(t, filepath.Join(root, "sub", "x.yaml"), strings.Replace(goodIDMS, "name: good", "name: x", 1))
	testtree.WriteFile(t, filepath.Join(root, "hidden", "only-via-link.yaml"), strings.Replace(goodIDMS, "name: good", "name: via-link", 1))
	testtree.WriteFile(t, filepath.Join(outside, "secret.yaml"), strings.Replace(goodIDMS, "name: good", "name: secret", 1))
	links := map[string]string{
		"alias.yaml":      "good.yaml",              // same file twice: read once, under its real name
		"dirlink":         "sub",                    // same directory twice
		"loop":            ".",                      // a directory loop
		"sub/up":          "..",                     // another loop
		"a.yaml":          "b.yaml",                 // a symlink loop
		"b.yaml":          "a.yaml",                 //
		"escape.yaml":     "../outside/secret.yaml", // leaves the root
		"escape-dir":      "../outside",             //
		"abs-escape.yaml": filepath.Join(outside, "secret.yaml"),
		"dangling.yaml":   "nope.yaml",
		"zlink":           "hidden",
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(root, l)); err != nil {
			t.Skipf("symlinks unsupported: %v", err)
		}
	}
	// Hide the real directory so the only route is the link.
	s := mustLoad(t, []string{root}, Options{Exclude: []string{"hidden"}})
	got := map[string]string{}
	for _, o := range s.Objects {
		got[o.Name] = strings.TrimPrefix(o.File, filepath.ToSlash(root)+"/")
	}
	want := map[string]string{"good": "good.yaml", "x": "sub/x.yaml", "via-link": "zlink/only-via-link.yaml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("objects %v, want %v", got, want)
	}
	codes := map[string]string{}
	for _, p := range s.Problems {
		codes[strings.TrimPrefix(p.Pos.File, filepath.ToSlash(root)+"/")] = p.Code
		// Leaving the tree or looping is a deliberate skip; a dangling
		// link named like a manifest may hide objects.
		if wantWarn := p.Code != "read-error"; p.Warning != wantWarn {
			t.Errorf("%s: %s warning %v, want %v", p.Pos.File, p.Code, p.Warning, wantWarn)
		}
		if p.Code == "symlink-loop" && (strings.Contains(p.Message, "EvalSymlinks") || !strings.Contains(p.Message, "points back into itself")) {
			t.Errorf("loop message %q", p.Message)
		}
		if p.Code == "read-error" && (strings.Contains(p.Message, "lstat") || !strings.HasSuffix(p.Message, "points to nope.yaml, which does not exist")) {
			t.Errorf("dangling message %q", p.Message)
		}
	}
	wantCodes := map[string]string{
		"a.yaml": "symlink-loop", "b.yaml": "symlink-loop",
		"escape.yaml": "symlink-outside", "escape-dir": "symlink-outside", "abs-escape.yaml": "symlink-outside",
		"dangling.yaml": "read-error",
	}
	if !reflect.DeepEqual(codes, wantCodes) {
		t.Errorf("problems %v\nwant %v", s.Problems, wantCodes)
	}

	// A root given through a symlink is walked, and named as given.
	rootLink := filepath.Join(base, "rootlink")
	if err := os.Symlink(root, rootLink); err != nil {
		t.Fatal(err)
	}
	s = mustLoad(t, []string{rootLink}, Options{})
	o := findObject(t, s, "ImageDigestMirrorSet/good")
	if o.File != filepath.ToSlash(filepath.Join(rootLink, "good.yaml")) {
		t.Errorf("file %s", o.File)
	}
}

func TestFileNamesJoinArgument(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"./testdata/positions/", "testdata/kinds/all.yaml"}, Options{})
	want := []string{"testdata/positions/image.json", "testdata/positions/list.yaml", "testdata/positions/multi.yaml", "testdata/kinds/all.yaml"}
	if !reflect.DeepEqual(s.Files, want) {
		t.Errorf("files %v", s.Files)
	}
}
