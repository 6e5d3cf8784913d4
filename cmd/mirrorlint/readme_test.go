package main

import (
	"os"
	"strings"
	"testing"
)

// docs/rules.md is generated from the registry; this keeps the
// documentation from drifting away from the rules that exist. `make docs`
// regenerates it.
func TestRulesPageIsCurrent(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	r := mlRun(t, "", "rules", "--config", "none", "--format", "markdown")
	if r.code != 0 {
		t.Fatalf("rules: exit %d %s", r.code, r.stderr)
	}
	if string(page) != r.stdout {
		t.Fatal("docs/rules.md is stale; regenerate it with `make docs`")
	}
}

// CI must run exactly the README's test command.
func TestCIRunsTheReadmeTestCommand(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "make test"
	if !strings.Contains(string(readme), "```sh\n"+cmd+"\n```") {
		t.Fatalf("README does not show %q as the test command", cmd)
	}
	last := ""
	for _, l := range strings.Split(strings.TrimSpace(string(ci)), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			last = l
		}
	}
	if last != cmd {
		t.Fatalf(".ci/run ends with %q, want the README's %q", last, cmd)
	}
}
