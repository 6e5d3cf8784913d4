package gitrev

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

func TestFiles(t *testing.T) {
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	git := gittest.Runner(t, top)
	git("init", "-q")
	write := testtree.Writer(t, top)
	write(".gitignore", "build/\n*.tmp.yaml\n")
	write("clusters/a/idms.yaml", testtree.AcmeIDMS)
	write("clusters/a/deleted.yaml", testtree.AcmeIDMS)
	git("add", ".")
	git("commit", "-q", "-m", "one")
	write("clusters/a/new file.yaml", idmsV2) // untracked, not ignored
	write("clusters/a/scratch.tmp.yaml", idmsV2)
	write("build/out.yaml", idmsV2)
	if err := os.Remove(filepath.Join(top, "clusters/a/deleted.yaml")); err != nil {
		t.Fatal(err)
	}
	// An untracked nested repository.
	write("vendor/other/x.yaml", testtree.AcmeIDMS)
	gittest.Runner(t, filepath.Join(top, "vendor/other"))("init", "-q")

	// Files works from anywhere: its paths are absolute.
	t.Chdir(filepath.Join(top, "clusters"))
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			out = append(out, strings.TrimPrefix(filepath.ToSlash(p), filepath.ToSlash(top)+"/"))
		}
		sort.Strings(out)
		return out
	}
	tracked, err := Files(top, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(tracked), []string{".gitignore", "clusters/a/deleted.yaml", "clusters/a/idms.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("tracked: %q, want %q", got, want)
	}
	all, err := Files(top, true)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rel(all), []string{".gitignore", "clusters/a/deleted.yaml", "clusters/a/idms.yaml", "clusters/a/new file.yaml", "vendor/other/"}; !reflect.DeepEqual(got, want) {
		t.Errorf("tracked and untracked: %q, want %q", got, want)
	}
}
