package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// migrate must not say "no ImageContentSourcePolicy found" when an input
// does not load: the ICSP may be in it. It reports the problem where it is,
// exits 2 and writes nothing, not even for the files that load.
func TestMigrateRefusesInputThatDoesNotLoad(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, body, at string }{
		{"yaml error", "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: broken\nspec:\n  repositoryDigestMirrors:\n  - source: [quay.io/x\n", "broken.yaml:"},
		{"type error", "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: broken\nspec:\n  repositoryDigestMirrors:\n  - source: quay.io/x\n    mirrors: mirror.example.com/x\n", "broken.yaml:8:"},
		{"does not decode", "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: broken\nspec:\n  repositoryDigestMirrors: {source: quay.io/x}\n", "broken.yaml:6:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testtree.Write(t, map[string]string{"broken.yaml": tc.body, "good/icsp.yaml": migrateICSP})
			for _, args := range [][]string{{"migrate", "--diff", dir}, {"migrate", dir}, {"migrate", filepath.Join(dir, "broken.yaml")}} {
				r := mlRun(t, "", args...)
				if r.code != exitUsage || !strings.Contains(r.stderr, tc.at) || !strings.Contains(r.stderr, "error:") || strings.Contains(r.stderr, "no ImageContentSourcePolicy") {
					t.Errorf("%v: exit %d, want 2 with a problem at %s\nstdout:\n%s\nstderr:\n%s", args, r.code, tc.at, r.stdout, r.stderr)
				}
				if r.stdout != "" {
					t.Errorf("%v printed a plan despite the problem:\n%s", args, r.stdout)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "good", "icsp.idms.yaml")); err == nil {
				t.Error("a file was migrated although another input did not load")
			}
		})
	}
}

func TestMigrateHelpHasExamples(t *testing.T) {
	t.Parallel()
	r := mlRun(t, "", "migrate", "--help")
	if r.code != exitOK || !strings.Contains(r.stdout, "Examples:") || !strings.Contains(r.stdout, "mirrorlint migrate --diff") || !strings.Contains(r.stdout, "nothing is migrated") {
		t.Errorf("migrate --help must show examples and say what happens to input that does not load:\n%s", r.stdout)
	}
}
