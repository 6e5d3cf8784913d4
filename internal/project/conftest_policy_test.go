package project_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The conftest policies BenchmarkCache10k compares with find what they
// claim to: each of the four checks fails once on a tree breaking it, and
// none on a tree breaking none. Skipped without a conftest binary.
func TestConftestComparisonPoliciesFindTheirCases(t *testing.T) {
	bin := ""
	if p, err := filepath.Abs("../../bin/tools/conftest"); err == nil {
		if _, err := exec.LookPath(p); err == nil {
			bin = p
		}
	}
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("conftest"); err != nil {
			t.Skip("no conftest binary (make conftest installs it)")
		}
	}
	policy, err := filepath.Abs("testdata/conftest")
	if err != nil {
		t.Fatal(err)
	}
	idms := func(name, source, extra string) string {
		return "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: " + name + "}\nspec:\n  imageDigestMirrors:\n  - source: " + source + "\n" + extra
	}
	clean := idms("ok", "quay.io/a", "    mirrors: [mirror.example.com/a]\n")
	broken := map[string]string{
		"upper.yaml":  idms("upper", "quay.io/Team/a", "    mirrors: [mirror.example.com/a]\n"),
		"digest.yaml": idms("digest", "quay.io/a@sha256:0000000000000000000000000000000000000000000000000000000000000000", "    mirrors: [mirror.example.com/a]\n"),
		"never.yaml":  idms("never", "quay.io/b", "    mirrorSourcePolicy: NeverContactSource\n"),
		"icsp.yaml":   "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata: {name: old}\nspec:\n  repositoryDigestMirrors:\n  - source: quay.io/c\n    mirrors: [mirror.example.com/c]\n",
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		fails []string
	}{
		{"clean", map[string]string{"ok.yaml": clean}, nil},
		{"broken", broken, []string{"has upper-case letters", "ICSP old mixed with ImageDigestMirrorSet", "names a digest", "NeverContactSource without mirrors"}},
	} {
		dir := testtree.Write(t, tc.files)
		cmd := exec.Command(bin, "test", "--combine", "--no-color", "-p", policy, ".")
		cmd.Dir = dir
		out, _ := cmd.CombinedOutput()
		got := strings.Count(string(out), "FAIL - ")
		for _, f := range tc.fails {
			if !strings.Contains(string(out), f) {
				t.Errorf("%s: conftest did not report %q:\n%s", tc.name, f, out)
			}
		}
		// The ICSP is beside three IDMS: one failure per pair.
		if want := map[string]int{"clean": 0, "broken": 6}[tc.name]; got != want {
			t.Errorf("%s: %d failures, want %d:\n%s", tc.name, got, want, out)
		}
	}
}
