package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/contentcache"
	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// envRunCLI makes the test binary run the command line with its arguments
// (TestMain), so a test can run it in a process of its own.
const envRunCLI = "MIRRORLINT_TEST_RUN_CLI"

// TestMain points the content cache at a directory of this test binary's
// own: the command's tests never read or write the user's cache, and every
// one of them runs with the cache on, as users do. Started by cliProcess,
// the test binary is the command line instead.
func TestMain(m *testing.M) {
	if os.Getenv(envRunCLI) == "1" {
		os.Exit(runProcess(append([]string{"mirrorlint"}, os.Args[1:]...)))
	}
	dir, err := os.MkdirTemp("", "mirrorlint-cmd-cache-")
	if err == nil {
		os.Setenv(contentcache.EnvDir, dir)
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// The pre-commit path and a tree run report with the cache what they
// report without it: cold, warm, and after edits git's index does not
// know of yet (a workload changed to an image its cluster cannot pull,
// a file added), which must be read rather than taken from the index.
func TestCachedRunsReportWhatUncachedRunsDo(t *testing.T) {
	repo := fleetRepo(t)
	write := testtree.Writer(t, repo)
	write("clusters/hub/app.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\nspec:\n  template:\n    spec:\n      containers: [{name: a, image: \"quay.io/acme/tools@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"}]\n")
	git := gittest.Runner(t, repo)
	git("add", ".")
	git("commit", "-qm", "app")
	t.Setenv(contentcache.EnvDir, t.TempDir())
	t.Chdir(repo)
	lint := func(args ...string) string {
		t.Helper()
		r := mlRun(t, "", append([]string{"lint", "--format", "json"}, args...)...)
		if r.code > 1 {
			t.Fatalf("lint %v: exit %d: %s", args, r.code, r.stderr)
		}
		// Everything the user sees: the notes and warnings, the exit code.
		return fmt.Sprintf("%s\nstderr:\n%s\nexit %d", r.stdout, r.stderr, r.code)
	}
	same := func(what string, args ...string) string {
		t.Helper()
		want := lint(append([]string{"--no-cache"}, args...)...)
		for _, run := range []string{"cold", "warm"} {
			if got := lint(args...); got != want {
				t.Fatalf("%s, %s run of lint %v:\n%s\nwithout the cache:\n%s", what, run, args, got, want)
			}
		}
		return want
	}
	preCommit := []string{"clusters/hub/app.yaml", "clusters/hub/idms.yaml"}
	before := same("committed", preCommit...)
	same("committed tree", ".")
	write("clusters/hub/app.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\nspec:\n  template:\n    spec:\n      containers: [{name: a, image: \"quay.io/acme/app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"}]\n")
	write("clusters/hub/more.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: more}\nspec:\n  containers: [{name: m, image: \"quay.io/acme/app:v1\"}]\n")
	after := same("edited", append(preCommit, "clusters/hub/more.yaml")...)
	if after == before {
		t.Fatal("the edits changed no finding: the test cannot tell a stale cache from a fresh one")
	}
	same("edited tree", ".")
	// A file .gitignore hides is not read by a tree run until it is no
	// longer ignored; whole runs are keyed by what git lists.
	write("clusters/hub/scratch.yaml", "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: scratch}\nspec:\n  imageDigestMirrors:\n  - {source: quay.io/scratch, mirrors: [\"quay.io/scratch\"]}\n")
	write(".gitignore", "scratch.yaml\n")
	ignored := same("an ignored file", ".")
	write(".gitignore", "")
	if same("the file no longer ignored", ".") == ignored {
		t.Fatal("reading the formerly ignored file changed nothing: the test cannot tell a stale cache from a fresh one")
	}
	write("clusters/hub/scratch.yaml", "# mirrorlint:ignore-file reviewed\n")
	same("a file emptied", ".")
	// One pack per format: the loader's per-file results and the
	// per-cluster check results.
	if m, _ := filepath.Glob(filepath.Join(os.Getenv(contentcache.EnvDir), "pack-*")); len(m) != 2 {
		t.Errorf("cache directory holds %v, want two packs", m)
	}
}
