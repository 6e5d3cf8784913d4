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

// idmsV2 replaces the mirror: removing a mirror drains.
const idmsV2 = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: acme
spec:
  imageDigestMirrors:
  - source: quay.io/acme
    mirrors:
    - mirror-b.example.com/acme
`

// gitRepo builds a repository with idmsV1 committed, then idmsV2 committed
// on top, and returns its top directory.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run := gittest.Runner(t, dir)
	write := testtree.Writer(t, dir)
	run("init", "-q", "-b", "main")
	write("clusters/prod/idms.yaml", testtree.AcmeIDMS)
	write("README.md", "not a manifest\n")
	// export-ignore must not hide files from the old side (git archive would).
	write(".gitattributes", "clusters/** export-ignore\n")
	run("add", ".")
	run("commit", "-q", "-m", "one")
	write("clusters/prod/idms.yaml", idmsV2)
	write("clusters/new/idms.yaml", testtree.AcmeIDMS)
	run("add", ".")
	run("commit", "-q", "-m", "two")
	return dir
}

func TestCheckoutFromSubdirectory(t *testing.T) {
	dir := gitRepo(t)
	t.Chdir(filepath.Join(dir, "clusters"))
	before, _ := exec.Command("git", "status", "--porcelain").Output()

	snap, err := Checkout("HEAD~1", []string{"prod", "new"})
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if len(snap.Paths) != 1 || !strings.HasSuffix(snap.Paths[0], filepath.Join("clusters", "prod")) {
		t.Fatalf("paths %q", snap.Paths)
	}
	if len(snap.Missing) != 1 || snap.Missing[0] != "new" {
		t.Fatalf("missing %q: clusters/new did not exist at HEAD~1", snap.Missing)
	}
	got, err := os.ReadFile(filepath.Join(snap.Paths[0], "idms.yaml"))
	if err != nil || string(got) != testtree.AcmeIDMS {
		t.Fatalf("old file: %q, %v", got, err)
	}
	if n := snap.Name(filepath.Join(snap.Paths[0], "idms.yaml")); n != "clusters/prod/idms.yaml" {
		t.Fatalf("display name %q", n)
	}
	if w := snap.WorkTree(filepath.Join(snap.Paths[0], "idms.yaml")); w != filepath.Join(dir, "clusters", "prod", "idms.yaml") {
		t.Fatalf("working-tree path %q", w)
	}
	// Roots line up with the requested paths, the missing one included.
	if len(snap.Roots) != 2 || snap.Roots[0] != snap.Paths[0] || snap.Roots[1] != filepath.Join(snap.Dir, "clusters", "new") {
		t.Fatalf("roots %q", snap.Roots)
	}
	after, _ := exec.Command("git", "status", "--porcelain").Output()
	if string(before) != string(after) {
		t.Fatalf("working tree touched:\n%s\n---\n%s", before, after)
	}

}

func TestCheckoutErrors(t *testing.T) {
	dir := gitRepo(t)
	t.Chdir(dir)
	if _, err := Checkout("no-such-rev", nil); err == nil {
		t.Error("unknown revision accepted")
	}
	if _, err := Checkout("--output=x", nil); err == nil {
		t.Error("option-like revision accepted")
	}
	if _, err := Checkout("HEAD", []string{t.TempDir()}); err == nil {
		t.Error("path outside the repository accepted")
	}
	snap, err := Checkout("HEAD~1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if len(snap.Paths) != 1 || snap.Paths[0] != snap.Dir {
		t.Fatalf("whole repository: %q", snap.Paths)
	}
	if _, err := os.Stat(filepath.Join(snap.Dir, "clusters", "prod", "idms.yaml")); err != nil {
		t.Fatal(err)
	}
}

// A shallow clone (actions/checkout's default) lacks the base revision:
// the error says so and how to fetch it.
func TestCheckoutShallowCloneSaysSo(t *testing.T) {
	origin := gitRepo(t)
	clone := filepath.Join(t.TempDir(), "clone")
	run := gittest.Runner(t, t.TempDir())
	run("clone", "-q", "--depth=1", "file://"+origin, clone)
	t.Chdir(clone)
	base := strings.TrimSpace(string(must(exec.Command("git", "-C", origin, "rev-parse", "HEAD~1").Output())))
	_, err := Checkout(base, nil)
	if err == nil || !strings.Contains(err.Error(), "shallow clone") || !strings.Contains(err.Error(), "fetch-depth: 0") {
		t.Fatalf("error %v, want one naming the shallow clone and fetch-depth: 0", err)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
