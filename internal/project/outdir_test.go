package project

import (
	"os"
	"path/filepath"
	"testing"
)

// A stale CA directory planted as a link in the output directory makes the
// stale-file removal refuse, not delete the ca.crt it points at.
func TestWriteNodeFilesNeverDeletesThroughALink(t *testing.T) {
	p, err := Open(Options{Paths: []string{"testdata/registry-cas"}, ConfigPath: "none", OpenShiftVersion: "4.21"})
	if err != nil {
		t.Fatal(err)
	}
	r := Render(p.Clusters[0])
	if r.Refusal != nil {
		t.Fatal(r.Refusal)
	}
	outside := t.TempDir()
	victim := filepath.Join(outside, "ca.crt")
	if err := os.WriteFile(victim, []byte("VICTIM"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, link := range []struct{ at, to string }{
		{"docker/certs.d/old.example.com", outside},
		{"crio/policies/gone.json", victim},
	} {
		dir := t.TempDir()
		at := filepath.Join(dir, filepath.FromSlash(link.at))
		if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(link.to, at); err != nil {
			t.Fatal(err)
		}
		err := WriteNodeFiles(dir, r.Output)
		if b, rerr := os.ReadFile(victim); rerr != nil || string(b) != "VICTIM" {
			t.Fatalf("%s: the file outside was deleted or changed (%v)", link.at, rerr)
		}
		if _, lerr := os.Lstat(at); lerr != nil && err == nil {
			t.Errorf("%s: the link was removed without a word", link.at)
		}
	}
	// A linked policies directory is refused, not written through.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "docker"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "docker", "certs.d")); err != nil {
		t.Fatal(err)
	}
	if err := WriteNodeFiles(dir, r.Output); err == nil {
		t.Error("writing CAs through a linked certs.d was not refused")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("written outside the output directory: %v", entries)
	}
}
