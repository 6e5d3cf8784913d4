package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const diffIDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: acme
spec:
  imageDigestMirrors:
  - source: quay.io/acme
    mirrors:
    - %s
`

func idmsWith(mirror string) string { return strings.Replace(diffIDMS, "%s", mirror, 1) }

// TestDiffDrainCorpus runs exactly the command the acceptance check runs.
func TestDiffDrainCorpus(t *testing.T) {
	t.Parallel()
	cases, err := corpus.Cases(sharedDir(t, "corpus/public/drain"), "expected/verdict.txt")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no drain pairs (%v)", err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			want := corpus.ReadTrim(c.Expected("verdict.txt"))
			// The drain corpus models clusters without a ClusterImagePolicy (see corpus.CorpusVersion).
			r := mlRun(t, "", "diff", "--format", "json", "--openshift-version", corpus.CorpusVersion.String(), "--release-image", c.ReleaseImage(),
				filepath.Join(c.Dir, "old", "manifests"), filepath.Join(c.Dir, "new", "manifests"))
			if r.code != exitOK {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var out struct {
				Drain bool `json:"drain"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
				t.Fatal(err)
			}
			if got := map[bool]string{true: "drain", false: "safe"}[out.Drain]; got != want {
				t.Errorf("drain %t, want %s", out.Drain, want)
			}
		})
	}
}

func TestDiffExitCodes(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"a/idms.yaml":   idmsWith("mirror-a.example.com/acme"),
		"b/idms.yaml":   idmsWith("mirror-b.example.com/acme"),
		"bad/idms.yaml": idmsWith("mirror-a.example.com/acme") + "  - source: quay.io/foo bar\n    mirrors: [m.example.com/x]\n",
	})
	a, b, bad := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "bad")

	r := mlRun(t, "", "diff", a, b)
	if r.code != exitOK || !strings.Contains(r.stdout, "-    location = \"mirror-a.example.com/acme\"") || !strings.Contains(r.stdout, "verdict: nodes drain") {
		t.Errorf("diff a b: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mlRun(t, "", "diff", "--fail-on-drain", a, b); r.code != exitFindings {
		t.Errorf("--fail-on-drain on a draining change: exit %d", r.code)
	}
	if r := mlRun(t, "", "diff", "--fail-on-drain", a, a); r.code != exitOK || !strings.Contains(r.stdout, "no change") {
		t.Errorf("identical trees: exit %d\n%s", r.code, r.stdout)
	}
	r = mlRun(t, "", "diff", "--format", "json", a, bad)
	if r.code != exitFindings || !strings.Contains(r.stderr, "new tree") || !strings.Contains(r.stderr, "idms.yaml:") {
		t.Errorf("refused new side: exit %d, stderr %q", r.code, r.stderr)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out["action"] != "refused" || out["drain"] != false {
		t.Errorf("refused json: %v %v", out, err)
	}
	for _, args := range [][]string{
		{"diff", a},
		{"diff", "--format", "yaml", a, b},
		{"diff", "--base", "no-such-revision-anywhere", a},
	} {
		if r := mlRun(t, "", args...); r.code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", args, r.code, r.stderr)
		}
	}
}

func TestDiffBase(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"clusters/prod/idms.yaml": idmsWith("mirror-a.example.com/acme")})
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	// The change adds a second mirror: safe. Committed, then the working
	// tree goes further and removes the first: drain.
	os.WriteFile(filepath.Join(dir, "clusters/prod/idms.yaml"), []byte(idmsWith("mirror-a.example.com/acme\n    - mirror-b.example.com/acme")), 0o644)
	git("commit", "-q", "-am", "add mirror")
	t.Chdir(filepath.Join(dir, "clusters"))

	r := mlRun(t, "", "diff", "--base", "HEAD~1", "--format", "json", "prod")
	var out struct {
		Drain   bool `json:"drain"`
		Action  string
		Reasons []struct{ Message string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != 0 {
		t.Fatalf("exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if out.Drain || out.Action != "reload" {
		t.Errorf("adding a digest-only mirror must only reload: %+v", out)
	}

	os.WriteFile(filepath.Join(dir, "clusters/prod/idms.yaml"), []byte(idmsWith("mirror-b.example.com/acme")), 0o644)
	r = mlRun(t, "", "diff", "--base", "HEAD", "--fail-on-drain", "prod")
	if r.code != exitFindings || !strings.Contains(r.stdout, "mirror mirror-a.example.com/acme removed") {
		t.Errorf("uncommitted removal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "clusters/prod/idms.yaml")); !strings.Contains(string(got), "mirror-b") || strings.Contains(string(got), "mirror-a") {
		t.Error("the working tree was touched")
	}
}
