//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// cliProcess runs the command line in a child process of this test binary,
// in dir, after the shell command limit (a ulimit), with GOMEMLIMIT unset.
func cliProcess(t *testing.T, dir, limit string, args ...string) mlResult {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", append([]string{"-c", limit + ` && exec "$0" "$@"`, self}, args...)...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "GOGC=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, envRunCLI+"=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return mlResult{cmd.ProcessState.ExitCode(), out.String(), errb.String()}
}

// A policy whose comprehension keeps a pair for each of 10^12 steps, in a
// process limited to 2 GB of address space (a Go process reserves more
// than a gigabyte of it at start): without the heap watchdog the process
// dies of it within a few seconds (exit 2, "fatal error: out of memory").
// With it, the evaluation is stopped at the budget the address space
// leaves, reported as limit-exceeded at the policy, and the run reports
// the Go rules' findings and ends with exit 1. The time limit is far off,
// so only the memory budget can have stopped it.
func TestHostilePolicyMemoryUnderAddressSpaceLimit(t *testing.T) {
	t.Parallel()
	dir := tree(t, prodTree(map[string]string{
		"policies/big.rego": "package acme.big\n\ndeny contains \"x\" if {\n\tx := [[a, b] | some a in numbers.range(1, 1000000); some b in numbers.range(1, 1000000)]\n\tcount(x) > 0\n}\n",
	}))
	r := cliProcess(t, dir, "ulimit -v 2000000", "lint", "--config", "none", "--no-cache", "--policy", "policies", "--policy-timeout", "2m", ".")
	if r.code != exitFindings {
		t.Fatalf("exit %d, want 1:\n%s%s", r.code, r.stdout, firstLines(r.stderr, 5))
	}
	if strings.Count(r.stdout, "error repository-lowercase") != 2 {
		t.Errorf("the Go rules' findings are missing:\n%s", r.stdout)
	}
	want := "policies/big.rego:1:1: error limit-exceeded: policy evaluation stopped at the memory budget of "
	if !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "(--policy-memory 1024 MiB, lowered to what ulimit -v leaves the process): the heap grew by more than that while the policy policies/big.rego evaluated") ||
		!strings.Contains(r.stdout, "give the process more memory (raise ulimit -v) only if the policy is known to need it") {
		t.Errorf("missing %q… naming the lowered budget and how to raise it:\n%s%s", want, r.stdout, r.stderr)
	}
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n") + "\n"
}
