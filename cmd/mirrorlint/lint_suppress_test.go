package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
)

// editedGitops copies the gitops fixture into a git repository, edits files
// (old → new in each), and changes into it.
func editedGitops(t *testing.T, edits map[string][2]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(gitopsFixture)); err != nil {
		t.Fatal(err)
	}
	for file, e := range edits {
		p := filepath.Join(dir, file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), e[0]) {
			t.Fatalf("%s: no %q", file, e[0])
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(data), e[0], e[1], 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "fixture")
	t.Chdir(dir)
	return dir
}

// TestSuppressionInBaseUsedOnce: a comment in the base silencing the mix
// that only the dev overlay has is used, never also "unused": not in a
// pre-commit run on the base file (where the context tree's relocation
// names the file differently from the cluster's objects), and not in runs
// that leave dev out (--cluster, a path argument below the repository):
// dev may need it. With every cluster linted, a comment nothing needs is
// still reported.
func TestSuppressionInBaseUsedOnce(t *testing.T) {
	editedGitops(t, map[string][2]string{"base/idms-release.yaml": {"  name: release\n",
		"  name: release # mirrorlint:ignore icsp-mixed-with-sets dev keeps its legacy ICSP until Q3\n" +
			"  # mirrorlint:ignore mirror-duplicate stale\n"}})
	for _, tc := range []struct {
		args       []string
		suppressed bool
	}{
		{[]string{"base/idms-release.yaml"}, true},
		{[]string{"."}, true},
		{[]string{"--cluster", "overlays/dev", "."}, true},
		{[]string{"--cluster", "overlays/prod", "."}, false},
		{[]string{"overlays/prod"}, false},
	} {
		r := mlRun(t, "", append([]string{"lint", "--config", "none"}, tc.args...)...)
		all := len(tc.args) == 1 && !strings.HasPrefix(tc.args[0], "overlays/")
		if got := strings.Count(r.stdout, "unused-suppression"); all && got != 1 || !all && got != 0 {
			t.Errorf("%v: %d unused-suppression, want %v (only the stale comment)\n%s", tc.args, got, map[bool]int{true: 1, false: 0}[all], r.stdout)
		}
		if strings.Contains(r.stdout, "unused-suppression") && !strings.Contains(r.stdout, "of mirror-duplicate") {
			t.Errorf("%v: the used comment is reported unused:\n%s", tc.args, r.stdout)
		}
		if got := strings.Contains(r.stdout, "1 suppressed"); got != tc.suppressed {
			t.Errorf("%v: suppressed %v, want %v\n%s", tc.args, got, tc.suppressed, r.stdout)
		}
	}
}
