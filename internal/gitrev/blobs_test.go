package gitrev

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// Blobs gives git's id for the files the work tree has not changed, the
// same id manifest.BlobID computes from the content; a file edited after
// it was added (staged or not) is left out, and so are links and
// untracked files.
func TestBlobs(t *testing.T) {
	t.Parallel()
	top, git := newRepo(t)
	write := func(rel, body string) string {
		p := filepath.Join(top, rel)
		testtree.WriteFile(t, p, body)
		return p
	}
	same := write("a/same.yaml", testtree.AcmeIDMS)
	write("a/edited.yaml", testtree.AcmeIDMS)
	write("a/staged.yaml", testtree.AcmeIDMS)
	if err := os.Symlink("same.yaml", filepath.Join(top, "a/link.yaml")); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "one")
	write("a/edited.yaml", idmsV2)
	write("a/staged.yaml", idmsV2)
	git("add", "a/staged.yaml")
	write("a/staged.yaml", testtree.AcmeIDMS+"# again\n")
	write("a/untracked.yaml", testtree.AcmeIDMS)

	got, err := Blobs(top)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{same: manifest.BlobID([]byte(testtree.AcmeIDMS))}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Blobs = %v, want %v", got, want)
	}
}
