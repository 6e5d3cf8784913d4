package safefs

import (
	"os"
	"path/filepath"
	"testing"
)

// RealPath gives what filepath.EvalSymlinks gives, or the absolute path
// when that fails (a missing file, a dangling link), however the
// directories were reached before: through a link, a deeper link, "..".
func TestResolverRealPathLikeEvalSymlinks(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []func() error{
		func() error { return os.MkdirAll(filepath.Join(dir, "real/sub/deep"), 0o755) },
		func() error { return os.WriteFile(filepath.Join(dir, "real/sub/deep/a.yaml"), nil, 0o644) },
		func() error { return os.Symlink("real", filepath.Join(dir, "link")) },
		func() error { return os.Symlink("sub/deep", filepath.Join(dir, "real/short")) },
		func() error { return os.Symlink("deep/a.yaml", filepath.Join(dir, "real/sub/file-link.yaml")) },
		func() error { return os.Symlink("/nonexistent/x", filepath.Join(dir, "real/dangling")) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	var r Resolver
	for range 2 {
		for _, p := range []string{"link/sub/deep/a.yaml", "link/short/a.yaml", "real/short/../sub/deep/a.yaml", "link/sub/file-link.yaml", "real/dangling", "real/dangling/y", "link/missing/z.yaml", "link/sub/deep/missing.yaml", "link/sub/deep", "link"} {
			abs := filepath.Join(dir, p)
			want, err := filepath.EvalSymlinks(abs)
			if err != nil {
				want = abs
			}
			if got := r.RealPath(abs); got != want {
				t.Errorf("RealPath(%s) = %q, want %q", p, got, want)
			}
		}
	}
}
