// Package gittest is test support: it runs git in a scratch repository the
// same way in every test that needs one (impact, and the CLI's diff --base
// and lint --base).
package gittest

import (
	"os"
	"os/exec"
	"testing"
)

// Runner returns a function that runs git in dir and fails the test when a
// command fails; it skips the test when git is not installed. The identity
// is fixed and the user's and system's config are ignored, so a developer's
// commit.gpgsign, hooks path or default branch cannot change a test.
func Runner(t testing.TB, dir string) func(args ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}
