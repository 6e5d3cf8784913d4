package main

import (
	"os"
	"strings"
	"testing"
)

// The README's rule table is generated from the registry; this keeps the
// documentation from drifting away from the rules that exist.
func TestReadmeRuleTableIsCurrent(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "-->\n", "<!-- rules:end -->"
	s := string(readme)
	i := strings.Index(s, "<!-- rules:begin")
	j := strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("README lacks the rules:begin/rules:end markers")
	}
	table := s[i:j]
	table = table[strings.Index(table, begin)+len(begin):]
	r := mlRun(t, "", "rules", "--config", "none", "--format", "markdown")
	if r.code != 0 {
		t.Fatalf("rules: exit %d %s", r.code, r.stderr)
	}
	if table != r.stdout {
		t.Fatalf("README rule table is stale; regenerate it with `mirrorlint rules --format markdown`:\n%s", r.stdout)
	}
}

// CI must run exactly the README's test command.
func TestCIRunsTheReadmeTestCommand(t *testing.T) {
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
