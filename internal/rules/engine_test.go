package rules

import (
	"sync"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/policy"
)

var (
	builtinOnce sync.Once
	builtinPE   *policy.Engine
	builtinErr  error
)

// newEngine is what a plain `mirrorlint lint` runs: the Go rules plus the
// embedded Rego library (icsp-mixed-with-sets lives there), compiled once
// per test binary.
func newEngine(t testing.TB) *check.Engine {
	t.Helper()
	builtinOnce.Do(func() { builtinPE, builtinErr = policy.Load(policy.Options{Builtin: true}) })
	if builtinErr != nil {
		t.Fatal(builtinErr)
	}
	reg := Registry()
	for _, r := range builtinPE.Rules() {
		if err := reg.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	return &check.Engine{Rules: reg, Policies: builtinPE}
}
