package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
)

// gitopsRepo commits a copy of the cluster package's gitops fixture (a
// base and two overlays built from it with kustomize) and returns its top.
func gitopsRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../internal/cluster/testdata/gitops")); err != nil {
		t.Fatal(err)
	}
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	return dir
}

type diffJSON struct {
	Drain   bool   `json:"drain"`
	Action  string `json:"action"`
	Reasons []struct {
		Cluster string `json:"cluster"`
		Message string `json:"message"`
		Drain   bool   `json:"drain"`
	} `json:"reasons"`
}

func runDiffJSON(t *testing.T, args ...string) diffJSON {
	t.Helper()
	r := mlRun(t, "", append([]string{"diff", "--config", "none", "--format", "json"}, args...)...)
	var out diffJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != exitOK {
		t.Fatalf("diff %v: exit %d, %v\n%s%s", args, r.code, err, r.stdout, r.stderr)
	}
	return out
}

// drainMessages are the draining reasons, of one cluster when named.
func drainMessages(out diffJSON, cluster string) []string {
	var msgs []string
	for _, r := range out.Reasons {
		if r.Drain && (cluster == "" || r.Cluster == cluster) {
			msgs = append(msgs, r.Message)
		}
	}
	sort.Strings(msgs)
	return msgs
}

// An overlay compared with --base must be built with its base as it was at
// the revision: before the snapshot held the whole repository, the old
// overlay could not find ../../base, rendered as the template, and a
// removed mirror was reported as "reload only".
func TestDiffBaseOverlayReadsItsBase(t *testing.T) {
	for _, tc := range []struct {
		name, file, old, new string
	}{
		{"base changed", "base/idms-release.yaml", "mirror.corp.example/ocp/release", "mirror2.corp.example/ocp/release"},
		{"overlay changed", "overlays/prod/idms-apps.yaml", "mirror.corp.example/apps", "mirror2.corp.example/apps"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := gitopsRepo(t)
			p := filepath.Join(repo, filepath.FromSlash(tc.file))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(data), tc.old, tc.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			removed := "mirror " + tc.old + " removed"

			t.Chdir(repo)
			whole := runDiffJSON(t, "--base", "HEAD")
			want := drainMessages(whole, "overlays/prod")
			if !whole.Drain || len(want) == 0 || !strings.Contains(strings.Join(want, "\n"), removed) {
				t.Fatalf("whole tree: want prod to drain on %q: %+v", removed, whole)
			}

			for _, where := range []struct{ dir, path string }{
				{repo, "overlays/prod"},
				{filepath.Join(repo, "overlays"), "prod"},
				{filepath.Join(repo, "overlays", "prod"), "."},
			} {
				t.Chdir(where.dir)
				out := runDiffJSON(t, "--base", "HEAD", where.path)
				if got := drainMessages(out, ""); !out.Drain || out.Action != whole.Action || strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("from %s, diff --base HEAD %s: action %s, drain reasons %q; the whole tree says %s, %q",
						where.dir, where.path, out.Action, got, whole.Action, want)
				}
			}

			t.Chdir(repo)
			r := mlRun(t, "", "lint", "--config", "none", "--base", "HEAD", "overlays/prod")
			if !strings.Contains(r.stdout, "warning drain-on-change") || !strings.Contains(r.stdout, removed) {
				t.Errorf("lint --base HEAD overlays/prod: no drain-on-change warning naming %q (exit %d):\n%s%s", removed, r.code, r.stdout, r.stderr)
			}
		})
	}
}
