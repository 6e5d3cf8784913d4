package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A blob of the base revision that the local clone lacks (a partial
// clone, a damaged repository) keeps only the cluster reading it from
// being compared: the problem is on that file, says how to get the blob,
// and the other clusters get their verdict; the run exits 2, as for any
// cluster not compared.
func TestDiffBaseWithAnAbsentBlob(t *testing.T) {
	enterAbsentBlobRepo(t)

	r := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD")
	for _, want := range []string{
		"== cluster clusters/east\n",
		"verdict: nodes drain",
		"== cluster clusters/west\nclusters/west/idms.yaml (at HEAD): error: the old tree does not load: git has no content for this file at HEAD: its object is missing from the local clone",
		"fetch it (git fetch --refetch origin, or git fetch --unshallow in a shallow clone) and run again",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("diff --base HEAD lacks %q:\nstdout:\n%s\nstderr:\n%s", want, r.stdout, r.stderr)
		}
	}
	if r.code != exitUsage || !strings.Contains(r.stderr, "1 of 2 clusters not compared, an input of theirs does not load: clusters/west") {
		t.Errorf("exit %d, want 2 with clusters/west not compared\nstderr:\n%s", r.code, r.stderr)
	}
}

// lint --base with a base blob the clone lacks: the clusters reading it
// get no drain verdict (a notice says why and how to fetch it) instead of
// one against an empty file, and the other clusters keep theirs.
func TestLintBaseWithAnAbsentBlob(t *testing.T) {
	enterAbsentBlobRepo(t)

	r := mlRun(t, "", "lint", "--config", "none", "--base", "HEAD", ".")
	if !strings.Contains(r.stdout, "clusters/east/idms.yaml") || !strings.Contains(r.stdout, "drain-on-change") {
		t.Errorf("no drain warning for the changed cluster east:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "clusters/west/idms.yaml") {
		t.Errorf("west is unchanged, but a finding is on its file (its base read as empty?):\n%s", r.stdout)
	}
	for _, want := range []string{"drain-on-change is not checked for the clusters that read them", "clusters/west/idms.yaml", "missing from the local clone"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// enterAbsentBlobRepo makes a repository of two clusters committed once,
// removes the object of clusters/west/idms.yaml from it (as a partial
// clone would lack it), edits clusters/east in the working tree and enters
// the repository.
func enterAbsentBlobRepo(t *testing.T) {
	t.Helper()
	repo := testtree.Write(t, map[string]string{
		"clusters/east/idms.yaml": idmsWith("mirror-a.example.com/acme"),
		"clusters/west/idms.yaml": idmsWith("mirror-b.example.com/acme"),
	})
	git := gittest.Runner(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "one")
	out, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD:clusters/west/idms.yaml").Output()
	if err != nil {
		t.Fatal(err)
	}
	oid := strings.TrimSpace(string(out))
	if err := os.Remove(filepath.Join(repo, ".git", "objects", oid[:2], oid[2:])); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "clusters", "east", "idms.yaml"), []byte(idmsWith("mirror-c.example.com/acme")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
}
