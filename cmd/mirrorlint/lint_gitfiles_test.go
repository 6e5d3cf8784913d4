package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

func policyIDMS(name, policy string) string {
	return "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: " + name + "\nspec:\n  imageDigestMirrors:\n" +
		"  - source: quay.io/acme/release\n    mirrors:\n    - mirror.corp.example/acme/release\n    mirrorSourcePolicy: " + policy + "\n"
}

// gitCluster commits clusters/prod/idms.yaml to a new repository and
// leaves beside it an untracked scratch file that contradicts it (another
// mirrorSourcePolicy for the same source: conflicting-source-policy, an
// error naming both files), and a .gitignore'd build output with the same
// contradiction.
func gitCluster(t *testing.T) string {
	t.Helper()
	repo := testtree.Write(t, map[string]string{
		".gitignore":              "build/\n",
		"clusters/prod/idms.yaml": policyIDMS("release", "NeverContactSource"),
	})
	git := gittest.Runner(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "prod")
	testtree.WriteAt(t, repo, map[string]string{
		"clusters/prod/scratch.yaml":   policyIDMS("scratch", "AllowContactingSource"),
		"clusters/prod/build/out.yaml": policyIDMS("built", "AllowContactingSource"),
	})
	return repo
}

// The pre-commit path reads what the commit holds: committing idms.yaml
// passes though an untracked scratch file contradicts it; giving the
// scratch file too (committing both) reports the conflict.
func TestCommitCheckIgnoresUntrackedFiles(t *testing.T) {
	repo := gitCluster(t)
	t.Chdir(repo)
	r := mlRun(t, "", "lint", "--config", "none", "clusters/prod/idms.yaml")
	if r.code != exitOK || strings.Contains(r.stdout, "scratch") {
		t.Errorf("committing idms.yaml alone: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mlRun(t, "", "lint", "--config", "none", "clusters/prod/idms.yaml", "clusters/prod/scratch.yaml")
	if r.code != exitFindings || !strings.Contains(r.stdout, "conflicting-source-policy") || !strings.Contains(r.stdout, "clusters/prod/scratch.yaml") {
		t.Errorf("committing both: exit %d, want 1 with the conflict\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "build/out.yaml") {
		t.Errorf("an ignored file took part:\n%s", r.stdout)
	}
}

// `lint .` in a repository reads the tracked files and the untracked ones
// .gitignore does not exclude; outside a repository, everything.
func TestLintTreeHonoursGitignore(t *testing.T) {
	repo := gitCluster(t)
	t.Chdir(repo)
	r := mlRun(t, "", "lint", "--config", "none", ".")
	if r.code != exitFindings || !strings.Contains(r.stdout, "clusters/prod/scratch.yaml") {
		t.Errorf("the untracked, not ignored scratch file must be read: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "build/out.yaml") || strings.Contains(r.stdout, "built") {
		t.Errorf("the ignored build output was read:\n%s", r.stdout)
	}
	for _, cmd := range [][]string{{"clusters", "--format", "json", "."}, {"render", "clusters/prod"}} {
		r := mlRun(t, "", append(cmd[:1:1], append([]string{"--config", "none"}, cmd[1:]...)...)...)
		if strings.Contains(r.stdout+r.stderr, "build/out.yaml") || strings.Contains(r.stdout+r.stderr, "built") {
			t.Errorf("%v read the ignored file:\n%s%s", cmd, r.stdout, r.stderr)
		}
	}
	// Named on the command line, an ignored file is read.
	r = mlRun(t, "", "lint", "--config", "none", "--context", "none", "clusters/prod/build/out.yaml")
	if r.code != exitOK || !strings.Contains(r.stdout, "no problems found") {
		t.Errorf("an ignored file named explicitly: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// The same tree outside git: every file is read.
	plain := t.TempDir()
	if err := os.CopyFS(plain, os.DirFS(filepath.Join(repo, "clusters"))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(plain)
	r = mlRun(t, "", "lint", "--config", "none", ".")
	if !strings.Contains(r.stdout, "prod/build/out.yaml") || !strings.Contains(r.stdout, "prod/scratch.yaml") {
		t.Errorf("outside git every file is read:\n%s%s", r.stdout, r.stderr)
	}
}

// JUnit lists a suite per file that holds something mirrorlint checks; a
// file without any (.pre-commit-config.yaml, a workload) is read but not
// listed as if it had passed every rule.
func TestJUnitSuitesOnlyForCheckedFiles(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		".pre-commit-config.yaml":  "repos:\n- repo: https://github.com/mirrorlint/mirrorlint\n  rev: v1.0.0\n  hooks:\n  - id: mirrorlint\n",
		"apps/deployment.yaml":     "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - image: quay.io/acme/web:1\n",
		"clusters/prod/idms.yaml":  policyIDMS("release", "NeverContactSource"),
		"clusters/prod/broken.yml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nspec: [\n",
	})
	t.Chdir(dir)
	r := mlRun(t, "", "lint", "--config", "none", "--format", "junit", ".")
	var doc struct {
		Suites []struct {
			Name string `xml:"name,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var names []string
	for _, s := range doc.Suites {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "clusters/prod/broken.yml clusters/prod/idms.yaml" {
		t.Errorf("suites %q, want the broken and the IDMS file only", names)
	}
}
