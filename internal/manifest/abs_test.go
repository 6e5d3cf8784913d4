package manifest

import (
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
