// Package checks assembles everything a lint run checks: the built-in Go
// rules and the Rego policies (the embedded library, where rules such as
// icsp-mixed-with-sets live, plus the team's own).
package checks

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/rules"
)

// Registry returns the Go rules plus the rules pe defines.
func Registry(pe *policy.Engine) (*check.Registry, error) {
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
// and the policy engine, ready for a check.Engine.
func Load(o policy.Options) (*check.Registry, *policy.Engine, error) {
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

// FromConfig is Load with the policies a config names (policy.OptionsFrom).
func FromConfig(cfg *config.Config) (*check.Registry, *policy.Engine, error) {
	o, err := policy.OptionsFrom(cfg)
	if err != nil {
		return nil, nil, err
	}
	return Load(o)
}

// Builtin is Load with only the embedded library: what every run checks
// when the team has no policies of its own.
func Builtin() (*check.Registry, *policy.Engine, error) {
	return Load(policy.Options{Builtin: true})
}

// RunOptions says what Run checks and where findings are shown.
type RunOptions struct {
	Rules    *check.Registry
	Policies *policy.Engine // nil: no policies
	// Relocate and AllReadersLinted are passed to the check.Engine.
	Relocate         func(cl *check.Cluster, fs []check.Finding) []check.Finding
	AllReadersLinted func(file string) bool
}

// Result is a run over every cluster.
type Result struct {
	// Findings are every cluster's findings merged (one finding on a
	// shared value lists every cluster), with the suppressions' own.
	Findings []check.Finding
	// Contexts holds each cluster's lint context, in the clusters' order:
	// its render or MCO's refusal.
	Contexts []*check.Context
}

// Run checks cfg's rule settings against the registry, lints every
// cluster with the rules and policies (findings relocated before
// suppressions are matched), and merges the findings.
func Run(clusters []*check.Cluster, cfg *config.Config, o RunOptions) (*Result, error) {
	var known func(string) bool
	var policies check.Evaluator
	if o.Policies != nil {
		known, policies = o.Policies.Known, o.Policies
	}
	if err := check.CheckConfig(cfg, o.Rules, known); err != nil {
		return nil, err
	}
	engine := &check.Engine{Rules: o.Rules, Config: cfg, Policies: policies, Relocate: o.Relocate, AllReadersLinted: o.AllReadersLinted}
	res := &Result{}
	var all [][]check.Finding
	for _, cl := range clusters {
		fs, ctx, err := engine.Lint(cl)
		if err != nil {
			return nil, err
		}
		all = append(all, fs)
		res.Contexts = append(res.Contexts, ctx)
	}
	all = append(all, engine.Finish())
	res.Findings = check.Merge(all...)
	return res, nil
}

// Needs is what a run with these rules and policies reads: the kinds the
// loader must parse (see manifest.Options.Prefilter).
func Needs(reg *check.Registry, pe *policy.Engine) manifest.Needs {
	n := reg.Needs()
	if pe != nil {
		n = n.Union(pe.Needs())
	}
	return n
}
