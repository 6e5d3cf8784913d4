package main

import (
	"os"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// An environment value read by one in-process run must not be seen by the
// next: urfave/cli stores it in the flag it applies, so the flags are built
// per app. A version outside the supported range makes the first run fail;
// the second, without the variable, renders the same tree.
func TestEnvironmentValueDoesNotLeakIntoTheNextRun(t *testing.T) {
	tree := testtree.Write(t, map[string]string{"idms.yaml": resolveTree})
	t.Setenv("MIRRORLINT_OPENSHIFT_VERSION", "4.99")
	first := mlRun(t, "", "render", "--config", "none", tree)
	if first.code != exitUsage || !strings.Contains(first.stderr, "4.99") {
		t.Fatalf("with MIRRORLINT_OPENSHIFT_VERSION=4.99: exit %d, stderr %q; want exit 2 naming 4.99", first.code, first.stderr)
	}
	os.Unsetenv("MIRRORLINT_OPENSHIFT_VERSION")
	second := mlRun(t, "", "render", "--config", "none", tree)
	if second.code != exitOK || strings.Contains(second.stderr, "4.99") {
		t.Fatalf("after unsetting MIRRORLINT_OPENSHIFT_VERSION: exit %d, stderr %q; want the run to succeed without 4.99", second.code, second.stderr)
	}

	t.Setenv("MIRRORLINT_RELEASE_IMAGE", "not a reference")
	if r := mlRun(t, "", "lint", "--config", "none", tree); r.code != exitUsage {
		t.Fatalf("with a malformed MIRRORLINT_RELEASE_IMAGE: exit %d, want 2; stderr %q", r.code, r.stderr)
	}
	os.Unsetenv("MIRRORLINT_RELEASE_IMAGE")
	if r := mlRun(t, "", "lint", "--config", "none", tree); strings.Contains(r.stderr, "not a reference") || r.code == exitUsage {
		t.Fatalf("after unsetting MIRRORLINT_RELEASE_IMAGE: exit %d, stderr %q; the earlier value leaked", r.code, r.stderr)
	}
}

// The help of every command is the same in a fresh process and after runs
// that took every flag's environment variable and parsed values: nothing
// a run reads is shown as a default later.
func TestHelpIsTheSameAfterRunsWithEnvironmentValues(t *testing.T) {
	help := func() map[string]string {
		out := map[string]string{"": mlRun(t, "", "--help").stdout}
		for _, cmd := range newApp(nil, nil, nil).Commands {
			out[cmd.Name] = mlRun(t, "", cmd.Name, "--help").stdout
		}
		return out
	}
	before := help()
	tree := testtree.Write(t, map[string]string{"idms.yaml": resolveTree})
	for _, cmd := range newApp(nil, nil, nil).Commands {
		for _, f := range cmd.Flags {
			if e, ok := f.(interface{ GetEnvVars() []string }); ok {
				for _, v := range e.GetEnvVars() {
					t.Setenv(v, "4.14")
				}
			}
		}
	}
	for _, cmd := range []string{"lint", "render", "clusters", "diff"} {
		mlRun(t, "", cmd, "--config", "none", "--cluster", "x", "--max-file-size", "1234", tree)
	}
	for _, cmd := range newApp(nil, nil, nil).Commands {
		for _, f := range cmd.Flags {
			if e, ok := f.(interface{ GetEnvVars() []string }); ok {
				for _, v := range e.GetEnvVars() {
					os.Unsetenv(v)
				}
			}
		}
	}
	after := help()
	if len(before) < 2 {
		t.Fatalf("help of %d commands, want every command", len(before))
	}
	for name, b := range before {
		if after[name] != b {
			t.Errorf("mirrorlint %s --help changed after runs with environment values:\nbefore:\n%s\nafter:\n%s", name, b, after[name])
		}
	}
}
