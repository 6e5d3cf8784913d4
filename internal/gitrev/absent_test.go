package gitrev

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// removeObject deletes the loose object file of the blob at rev:path, as
// a partial clone lacks a blob it never fetched.
func removeObject(t *testing.T, dir, spec string) {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "rev-parse", spec).Output()
	if err != nil {
		t.Fatal(err)
	}
	oid := strings.TrimSpace(string(out))
	if err := os.Remove(filepath.Join(dir, ".git", "objects", oid[:2], oid[2:])); err != nil {
		t.Fatal(err)
	}
}

// A blob the local repository lacks does not stop the extraction: the
// file is listed in Absent, left empty, and every other file is there.
func TestCheckoutKeepsGoingPastAnAbsentBlob(t *testing.T) {
	dir := t.TempDir()
	run := gittest.Runner(t, dir)
	write := testtree.Writer(t, dir)
	run("init", "-q", "-b", "main")
	write("a/idms.yaml", testtree.AcmeIDMS)
	write("b/idms.yaml", idmsV2)
	run("add", ".")
	run("commit", "-q", "-m", "one")
	removeObject(t, dir, "HEAD:b/idms.yaml")
	t.Chdir(dir)

	s, err := Checkout("HEAD", nil)
	if err != nil {
		t.Fatalf("Checkout: %v", err)
	}
	defer s.Close()
	want := filepath.Join(s.Dir, "b", "idms.yaml")
	if len(s.Absent) != 1 || s.Absent[0] != want {
		t.Errorf("Absent = %q, want [%q]", s.Absent, want)
	}
	if b, err := os.ReadFile(want); err != nil || len(b) != 0 {
		t.Errorf("the absent blob's file: %q, %v; want an empty file", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(s.Dir, "a", "idms.yaml")); err != nil || string(b) != testtree.AcmeIDMS {
		t.Errorf("a/idms.yaml = %q, %v; want it as committed", b, err)
	}
}
