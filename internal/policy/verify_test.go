package policy

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
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
	// The runner's order is its own: the small tests ran before the stop,
	// and passed, or did not run.
	for _, small := range []string{"test_a_small", "test_z_after"} {
		if line := "data.acme.big_test." + small + ": "; strings.Contains(out.String(), line) && !strings.Contains(out.String(), line+"PASS") {
			t.Errorf("%s ran and did not pass:\n%s", small, out.String())
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

// A test that builds without bound is stopped at the memory budget and
// reported as an error saying so, long before the time limit; the tests
// that ran before it pass, and the summary says the rest did not run.
// Not parallel: the heap is the process's, and other tests' growth would
// count against the budget.
func TestVerifyStopsATestAtTheMemoryBudget(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"big_test.rego": "package acme.big_test\n\ntest_a_small if { 1 == 1 }\n\ntest_z_after if { 1 == 1 }\n\ntest_pairs if {\n\tx := [[a, b] | some a in numbers.range(1, 1000000); some b in numbers.range(1, 1000000)]\n\tcount(x) > 0\n}\n"})
	var out bytes.Buffer
	failed, err := Verify(Options{Dirs: []string{dir}, Memory: 64 << 20, Timeout: 5 * time.Minute}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if !failed {
		t.Fatalf("a test past the memory budget was not reported:\n%s", out.String())
	}
	for _, s := range []string{
		"data.acme.big_test.test_pairs: ERROR",
		"stopped at the memory budget of 64 MiB (--policy-memory): the heap grew by more than that while the tests ran",
		"STOPPED: the tests were stopped at the memory budget; the tests not listed above did not run",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, out.String())
		}
	}
	// The runner's order is its own: the small tests ran before the stop,
	// and passed, or did not run.
	for _, small := range []string{"test_a_small", "test_z_after"} {
		if line := "data.acme.big_test." + small + ": "; strings.Contains(out.String(), line) && !strings.Contains(out.String(), line+"PASS") {
			t.Errorf("%s ran and did not pass:\n%s", small, out.String())
		}
	}
}
