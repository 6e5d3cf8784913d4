package main

import (
	"strings"
	"testing"
)

// A policy that runs past --policy-timeout is an error at its file; the
// Go rules' findings stay reported and the run ends with findings, not as
// a failed run.
func TestHostilePolicyTimeoutKeepsTheOtherFindings(t *testing.T) {
	dir := tree(t, prodTree(map[string]string{
		"policies/slow.rego": "package acme.slow\n\ndeny contains \"never\" if {\n\tsome i in numbers.range(1, 100000)\n\tsome j in numbers.range(1, 100000)\n\ti * j == -1\n}\n",
	}))
	r := lintTree(t, dir, "--policy", "policies", "--policy-timeout", "200ms")
	if r.code != exitFindings {
		t.Fatalf("exit %d, want 1:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "repository-lowercase") {
		t.Errorf("the Go rules' findings are missing:\n%s", r.stdout)
	}
	want := "policies/slow.rego:1:1: error limit-exceeded: policy evaluation stopped at the time limit of 200ms (--policy-timeout): the policy policies/slow.rego iterates over too much data or never ends"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("missing %q:\n%s%s", want, r.stdout, r.stderr)
	}
}

// A config found in the tree cannot turn limit-exceeded off: a pull
// request could otherwise hide that its policy stopped the run. Named with
// --config, the same file is the caller's.
func TestHostileConfigCannotSilenceLimits(t *testing.T) {
	dir := tree(t, prodTree(map[string]string{
		".mirrorlint.yaml":   "rules:\n  limit-exceeded: off\n",
		"policies/slow.rego": "package acme.slow\n\ndeny contains \"never\" if {\n\tsome i in numbers.range(1, 100000)\n\tsome j in numbers.range(1, 100000)\n\ti * j == -1\n}\n",
	}))
	t.Chdir(dir)
	r := mlRun(t, "", "lint", "--policy", "policies", "--policy-timeout", "200ms", ".")
	if r.code != exitFindings || !strings.Contains(r.stdout, "policies/slow.rego:1:1: error limit-exceeded: policy evaluation stopped") {
		t.Errorf("exit %d, want 1 with the timeout reported:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if want := ".mirrorlint.yaml:2:1: error"; !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "rules.limit-exceeded: rules: {limit-exceeded: off} hides that part of the run was not checked") {
		t.Errorf("no refusal at %s:\n%s%s", want, r.stdout, r.stderr)
	}
	r = mlRun(t, "", "lint", "--config", ".mirrorlint.yaml", "--policy", "policies", "--policy-timeout", "200ms", ".")
	if strings.Contains(r.stdout, "limit-exceeded: policy evaluation stopped") || strings.Contains(r.stdout, "refused from a config") {
		t.Errorf("--config should be trusted:\n%s%s", r.stdout, r.stderr)
	}
}
