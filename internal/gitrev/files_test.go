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

// newRepo is an empty repository in a temporary directory, named by its
// real path, and a runner of git in it.
func newRepo(t *testing.T) (string, func(args ...string)) {
	t.Helper()
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	git := gittest.Runner(t, top)
	git("init", "-q")
	return top, git
}

func TestFiles(t *testing.T) {
	top, git := newRepo(t)
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

// ReadWorkTree asked for everything at once gives what Files and Blobs
// give asked one at a time, and only what it was asked for.
func TestReadWorkTreeIsFilesAndBlobs(t *testing.T) {
	top, git := newRepo(t)
	write := testtree.Writer(t, top)
	write("a/idms.yaml", testtree.AcmeIDMS)
	write("a/changed.yaml", testtree.AcmeIDMS)
	git("add", ".")
	git("commit", "-q", "-m", "one")
	write("a/changed.yaml", idmsV2)
	write("a/untracked.yaml", idmsV2)
	w, err := ReadWorkTree(top, true, true)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Files(top, true)
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := Blobs(top)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(w.Files, files) || !reflect.DeepEqual(w.Blobs, blobs) {
		t.Errorf("ReadWorkTree = %q %v, Files and Blobs = %q %v", w.Files, w.Blobs, files, blobs)
	}
	if len(blobs) != 1 || blobs[filepath.Join(top, "a/idms.yaml")] == "" {
		t.Errorf("Blobs = %v, want the unchanged file's alone", blobs)
	}
	only, err := ReadWorkTree(top, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if only.Blobs != nil || len(only.Files) != 2 {
		t.Errorf("tracked files only: %q, blobs %v", only.Files, only.Blobs)
	}
}
