package safefs

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Abs answers as filepath.Abs does, and follows a change of the working
// directory between calls (its cache must not keep the old one).
func TestAbsLikeFilepathAbs(t *testing.T) {
	names := []string{"a.yaml", "./x/../b.yaml", "clusters/east/idms.yaml", "/etc/../tmp/c.yaml", ".", ".."}
	check := func() {
		t.Helper()
		for _, n := range names {
			want, err := filepath.Abs(n)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Abs(n)
			if err != nil || got != want {
				t.Errorf("Abs(%q) = %q, %v; filepath.Abs gives %q", n, got, err, want)
			}
		}
	}
	check()
	t.Chdir(t.TempDir())
	check()
	t.Chdir(filepath.Join(t.TempDir()))
	check()
}

// While the working directory is held Abs answers with it, a chdir
// notwithstanding, until the last hold is released; then it follows the
// directory again.
func TestHoldWorkingDir(t *testing.T) {
	first := t.TempDir()
	t.Chdir(first)
	want := func(dir string) {
		t.Helper()
		if got, err := Abs("a.yaml"); err != nil || got != filepath.Join(dir, "a.yaml") {
			t.Errorf("Abs = %q, %v; want it in %s", got, err, dir)
		}
	}
	outer := HoldWorkingDir()
	inner := HoldWorkingDir()
	second := t.TempDir()
	t.Chdir(second)
	want(first)
	inner()
	inner() // a second release of the same hold changes nothing
	want(first)
	outer()
	want(second)
}

// A root resolves paths as filepath.EvalSymlinks does, its directories
// asked once: links to directories and to files, a link replaced by a
// file between two reads of the same directory, missing files (the same
// error text), "." and "..".
func TestRootRealPathLikeEvalSymlinks(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "real/sub"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "real/sub/a.yaml"), []byte("a: 1\n"), 0o644))
	must(os.Symlink("real", filepath.Join(dir, "link")))
	must(os.Symlink("sub/a.yaml", filepath.Join(dir, "real/b.yaml")))
	must(os.Symlink("sub", filepath.Join(dir, "real/deeper")))
	must(os.Symlink("/nonexistent", filepath.Join(dir, "real/dangling")))
	r := New(0, dir)
	check := func(p string) {
		t.Helper()
		want, wantErr := filepath.EvalSymlinks(p)
		got, gotErr := r.realPath(p)
		if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("realPath(%q) = %q, %v; EvalSymlinks gives %q, %v", p, got, gotErr, want, wantErr)
		}
	}
	for range 2 { // the second time from the cache
		for _, p := range []string{"link/sub/a.yaml", "real/sub/a.yaml", "link/b.yaml", "real/b.yaml", "link/sub/missing.yaml", "missing/x.yaml", "link/deeper/a.yaml", "real/deeper/../b.yaml", "real/dangling/x.yaml", "real/dangling", "link/sub/.", "link/sub/..", "link", "."} {
			check(filepath.Join(dir, p))
		}
	}
	// The file itself is asked every time: a link that became a file, or a
	// file that became a link, is seen.
	must(os.Remove(filepath.Join(dir, "real/b.yaml")))
	must(os.WriteFile(filepath.Join(dir, "real/b.yaml"), []byte("b: 1\n"), 0o644))
	check(filepath.Join(dir, "link/b.yaml"))
	must(os.Remove(filepath.Join(dir, "real/sub/a.yaml")))
	must(os.Symlink("../b.yaml", filepath.Join(dir, "real/sub/a.yaml")))
	check(filepath.Join(dir, "link/sub/a.yaml"))
}
