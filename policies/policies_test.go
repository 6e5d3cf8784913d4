package policies_test

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/policies"
)

// Every policy in the library ships with its tests, and they pass.
func TestEveryPolicyHasPassingTests(t *testing.T) {
	names, err := fs.Glob(policies.FS, "*.rego")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.rego") {
			continue
		}
		if !have[strings.TrimSuffix(n, ".rego")+"_test.rego"] {
			t.Errorf("%s has no %s", n, strings.TrimSuffix(n, ".rego")+"_test.rego")
		}
	}
	var out bytes.Buffer
	failed, err := policy.Verify(policy.Options{Builtin: true}, &out)
	if err != nil || failed {
		t.Fatalf("verify: failed=%v err=%v\n%s", failed, err, out.String())
	}
}
