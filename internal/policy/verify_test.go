package policy

import (
	"bytes"
	"strings"
	"testing"
)

func TestVerifyBuiltinLibraryPasses(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	failed, err := Verify(Options{Builtin: true}, &out)
	if err != nil {
		t.Fatalf("Verify: %v\n%s", err, out.String())
	}
	if failed {
		t.Fatalf("built-in library tests failed:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "PASS:") || strings.Contains(out.String(), "no tests found") {
		t.Errorf("want a PASS summary with tests, got:\n%s", out.String())
	}
	t.Log(out.String())
}

func TestVerifyUserDirPasses(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	failed, err := Verify(Options{Dirs: []string{"testdata/policies"}}, &out)
	if err != nil || failed {
		t.Fatalf("failed=%v err=%v\n%s", failed, err, out.String())
	}
	if !strings.Contains(out.String(), "data.acme.mirrors_test.test_mirror_elsewhere_denied: PASS") ||
		!strings.Contains(out.String(), "PASS: 2/2") {
		t.Errorf("unexpected output:\n%s", out.String())
	}
}

func TestVerifyReportsFailingTestWithLocation(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	failed, err := Verify(Options{Dirs: []string{"testdata/broken/failing"}}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if !failed {
		t.Fatalf("a failing test was not reported as failed:\n%s", out.String())
	}
	for _, s := range []string{
		"data.acme.failing_test.test_passes: PASS",
		"data.acme.failing_test.test_denies_nothing: FAIL",
		"testdata/broken/failing/policy_test.rego:7: test failed at testdata/broken/failing/policy_test.rego:8: count(failing.deny) == 0",
		"PASS: 1/2", "FAIL: 1/2",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, out.String())
		}
	}
}

func TestVerifyCompileErrorIsAnError(t *testing.T) {
	t.Parallel()
	_, err := Verify(Options{Dirs: []string{"testdata/broken/syntax"}}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "broken.rego:4:") {
		t.Fatalf("want compile error with file:line, got %v", err)
	}
}
