package safefs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func names(t *testing.T, r *Root, dir string) []string {
	t.Helper()
	entries, err := r.ReadRealDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// A run's walks see one tree: a directory is listed once, later calls get
// that listing even after the directory changed, and its subdirectories
// (not its links) resolve to themselves as they were listed. Without a
// root every call reads the directory again.
func TestReadRealDirListsOncePerRun(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a/x.yaml", "b/y.yaml"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	r := New(0, dir)
	want := []string{"a", "b", "l"}
	if got := names(t, r, dir); !slices.Equal(got, want) {
		t.Fatalf("first listing %v, want %v", got, want)
	}
	// The tree changes under the run: b becomes a link, c appears.
	if err := os.RemoveAll(filepath.Join(dir, "b")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(dir, "b")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := names(t, r, dir); !slices.Equal(got, want) {
		t.Errorf("second listing %v, want the first, %v", got, want)
	}
	if got, ok := r.resolver.RealDir(filepath.Join(dir, "b")); !ok || got != filepath.Join(dir, "b") {
		t.Errorf("b resolves to %q %v, want itself as listed", got, ok)
	}
	// l was a link when listed: the resolver was not told it is real.
	if got, ok := r.resolver.RealDir(filepath.Join(dir, "l")); !ok || got != filepath.Join(dir, "a") {
		t.Errorf("l resolves to %q %v, want %s", got, ok, filepath.Join(dir, "a"))
	}
	// A listed file swapped for a link to a file outside the root is
	// named as listed, and reading it refuses the link, never follows it.
	names(t, r, filepath.Join(dir, "a"))
	secret := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(secret, []byte("kind: Secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := filepath.Join(dir, "a/x.yaml")
	if err := os.Remove(x); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, x); err != nil {
		t.Fatal(err)
	}
	if got, err := r.resolver.Real(x); err != nil || got != x {
		t.Errorf("Real(a/x.yaml) = %q, %v; want it as listed", got, err)
	}
	if data, err := r.ReadFile(x); err == nil {
		t.Errorf("read through a link swapped in after the listing: %q", data)
	}
	var none *Root
	if got, want := names(t, none, dir), []string{"a", "b", "c", "l"}; !slices.Equal(got, want) {
		t.Errorf("without a root: %v, want the tree as it is now, %v", got, want)
	}
	if _, err := r.ReadRealDir(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("a missing directory: %v, want not-exist", err)
	}
}

// Prefetch lists the whole tree into the run's memo, every directory
// below the top but none through a link or inside .git: after the tree
// changes, the walk sees it as prefetched where it was prefetched and as
// it is now where it was not.
func TestPrefetchListsTheTreeOnce(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	var dirs []string
	for i := range 40 {
		d := filepath.Join(dir, "apps", "team-"+string(rune('a'+i%5)), "app-"+string(rune('a'+i%8)))
		dirs = append(dirs, d)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{filepath.Join(dir, ".git", "objects"), filepath.Join(outside, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	r := New(0, dir)
	r.Prefetch(dir, nil)
	// Every listing is now the memo's: a file added afterwards is not in
	// the listing of its directory.
	for _, d := range append(dirs, dir, filepath.Join(dir, "apps")) {
		if err := os.WriteFile(filepath.Join(d, "late.yaml"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := names(t, r, d); slices.Contains(got, "late.yaml") {
			t.Errorf("%s: listed %v, want the prefetched listing", d, got)
		}
	}
	// .git and what a link leads to were not listed: asked now, they are
	// read as they are now.
	for _, d := range []string{filepath.Join(dir, ".git"), filepath.Join(dir, "out"), filepath.Join(dir, "out", "sub")} {
		if err := os.WriteFile(filepath.Join(d, "late.yaml"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := names(t, r, d); !slices.Contains(got, "late.yaml") {
			t.Errorf("%s: listed %v by the prefetch, which must not enter it", d, got)
		}
	}
	// A directory enter refuses is not listed, nor anything below it.
	r2 := New(0, dir)
	skipped := filepath.Join(dir, "apps", "team-a")
	r2.Prefetch(dir, func(d string) bool { return d != skipped })
	for _, d := range []string{skipped, filepath.Join(skipped, "app-a")} {
		if err := os.WriteFile(filepath.Join(d, "later.yaml"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := names(t, r2, d); !slices.Contains(got, "later.yaml") {
			t.Errorf("%s: listed %v by the prefetch, which enter refused", d, got)
		}
	}
	teamB := filepath.Join(dir, "apps", "team-b")
	if err := os.WriteFile(filepath.Join(teamB, "later.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := names(t, r2, teamB); slices.Contains(got, "later.yaml") {
		t.Errorf("apps/team-b, which enter admits, was not prefetched: %v", got)
	}
	var none *Root
	none.Prefetch(dir, nil) // no root, no memo: nothing to do
}
