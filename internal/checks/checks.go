// Package checks assembles everything a lint run checks: the built-in Go
// rules and the Rego policies (the embedded library, where rules such as
// icsp-mixed-with-sets live, plus the team's own).
package checks

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/lint"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/rules"
)

// Registry returns the Go rules plus the rules pe defines.
func Registry(pe *policy.Engine) (*lint.Registry, error) {
	reg := rules.Registry()
	if pe == nil {
		return reg, nil
	}
	for _, r := range pe.Rules() {
		if err := reg.Add(r); err != nil {
			return nil, fmt.Errorf("policy rule %s: %w", r.ID, err)
		}
	}
	return reg, nil
}

// Load compiles the policies described by o and returns the full registry
// and the policy engine, ready for a lint.Engine.
func Load(o policy.Options) (*lint.Registry, *policy.Engine, error) {
	pe, err := policy.Load(o)
	if err != nil {
		return nil, nil, err
	}
	reg, err := Registry(pe)
	if err != nil {
		return nil, nil, err
	}
	return reg, pe, nil
}

// Builtin is Load with only the embedded library: what every run checks
// when the team has no policies of its own.
func Builtin() (*lint.Registry, *policy.Engine, error) {
	return Load(policy.Options{Builtin: true})
}
