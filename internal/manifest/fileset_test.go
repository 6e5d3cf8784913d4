package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A walk restricted to a file set reads its members only, does not enter
// directories without members, and takes a whole-tree member (a submodule)
// whole; explicit file arguments, and a directory argument holding no
// member, are read as named.
func TestWalkFileSet(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"clusters/a/idms.yaml", "clusters/a/scratch.yaml", "build/out.yaml", "sub/module/x.yaml", "sub/module/deep/y.yaml", "ignored/z.yaml"} {
		testtree.WriteFile(t, filepath.Join(dir, f), strings.Replace(goodIDMS, "name: good", "name: "+strings.NewReplacer("/", "-", ".", "-").Replace(f), 1))
	}
	if err := os.Symlink("idms.yaml", filepath.Join(dir, "clusters/a/link.yaml")); err != nil {
		t.Fatal(err)
	}
	set := NewFileSet(dir, []string{
		filepath.Join(dir, "clusters/a/idms.yaml"),
		filepath.Join(dir, "clusters/a/link.yaml"),
		filepath.Join(dir, "sub/module") + "/",
	})
	rel := func(s *Set) []string {
		var out []string
		for _, f := range s.Files {
			out = append(out, strings.TrimPrefix(f, filepath.ToSlash(dir)+"/"))
		}
		return out
	}
	got := rel(mustLoad(t, []string{dir}, Options{Files: set}))
	want := []string{"clusters/a/idms.yaml", "sub/module/deep/y.yaml", "sub/module/x.yaml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("walk read %v, want %v", got, want)
	}
	// Named on the command line: read, member or not.
	got = rel(mustLoad(t, []string{filepath.Join(dir, "clusters/a/scratch.yaml"), filepath.Join(dir, "ignored")}, Options{Files: set}))
	want = []string{"clusters/a/scratch.yaml", "ignored/z.yaml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("explicit arguments read %v, want %v", got, want)
	}
	// Outside the set's root, everything is read.
	outside := t.TempDir()
	testtree.WriteFile(t, filepath.Join(outside, "o.yaml"), goodIDMS)
	if n := len(mustLoad(t, []string{outside}, Options{Files: set}).Files); n != 1 {
		t.Errorf("outside the root: read %d files, want 1", n)
	}
	// Without a set, everything as before.
	if n := len(mustLoad(t, []string{dir}, Options{}).Files); n != 6 {
		t.Errorf("unrestricted walk read %d files, want 6", n)
	}
}
