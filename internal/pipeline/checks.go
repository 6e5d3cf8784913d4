package pipeline

import (
	"fmt"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/contentcache"
	"github.com/mirrorlint/mirrorlint/internal/impact"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/parallel"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/rules"
)

// Checks is everything a run checks, compiled once and shared by every run
// (it is read-only after LoadChecks): the built-in Go rules, the rules the
// policies define, and the compiled policies.
type Checks struct {
	Rules    *check.Registry
	Policies *policy.Engine // nil: no policies at all

	// fingerprint is a digest of what the checks were compiled from (see
	// policyFingerprint); "" keeps their results out of Request.Results.
	fingerprint string
}

// LoadChecks compiles the policies o describes (the embedded library, the
// team's own) and returns every rule a run can report. drain-on-change is
// registered inert, so config severities and `mirrorlint rules` know it; a
// run with a base revision replaces it with one that compares.
func LoadChecks(o policy.Options) (*Checks, error) {
	pe, err := policy.Load(o)
	if err != nil {
		return nil, err
	}
	reg := rules.Registry()
	if err := reg.Add(impact.DrainRule(nil)); err != nil {
		return nil, err
	}
	for _, r := range pe.Rules() {
		if err := reg.Add(r); err != nil {
			return nil, fmt.Errorf("policy rule %s: %w", r.ID, err)
		}
	}
	fp := policyFingerprint(o)
	if v := contentcache.Version(); v == "" || fp == "" {
		fp = ""
	} else {
		fp = v + "/" + fp
	}
	return &Checks{Rules: reg, Policies: pe, fingerprint: fp}, nil
}

// ChecksFromConfig is LoadChecks with the policies a config names.
func ChecksFromConfig(cfg *config.Config) (*Checks, error) {
	o, err := policy.Settle(cfg, policy.Given{})
	if err != nil {
		return nil, err
	}
	return LoadChecks(o)
}

// lint checks the config's rule settings against the registry, lints every
// cluster of p with the rules and policies (findings relocated before
// suppressions are matched) and merges the findings.
// With a result store (and the checks LoadChecks compiled, reg theirs), a
// cluster's check results are taken from it when the cluster and what
// checks it are unchanged (see cache.go); reused counts those clusters.
func (c *Checks) lint(reg *check.Registry, p *project.Project, store manifest.Cache, relocate func(*cluster.Cluster, []check.Finding) []check.Finding, canceled func() error) (_ []check.Finding, _ []*check.Context, reused int, _ error) {
	cfg := p.Config
	var known func(string) bool
	var policies check.Evaluator
	if c.Policies != nil {
		known, policies = c.Policies.Known, c.Policies
	}
	if err := check.CheckConfig(cfg, reg, known); err != nil {
		return nil, nil, 0, err
	}
	run := ""
	if store != nil && reg == c.Rules {
		run = c.runFingerprint(cfg)
	}
	engine := &check.Engine{Rules: reg, Config: cfg, Policies: policies, Source: p.Source, Access: p.Access(), Relocate: relocate, AllReadersLinted: p.AllReadersLinted}
	// The clusters are checked at once (each only reads what the run
	// shares); their findings are settled one at a time, in order, so the
	// output and the suppression bookkeeping do not depend on scheduling.
	n := len(p.Clusters)
	raw := make([][]check.Finding, n)
	contexts := make([]*check.Context, n)
	errs := make([]error, n)
	hits := make([]bool, n)
	// The largest clusters start first: a repository's one big cluster
	// started last would leave the other processors idle while it is
	// checked after the small ones. Beside each check, the names Settle
	// will need of the cluster's files are resolved (Engine.Prepare), so
	// that the one-at-a-time part of the work is small.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(p.Clusters[b].Objects) - len(p.Clusters[a].Objects) })
	parallel.Each(2*n, func(k int) {
		i := order[k/2]
		if k%2 == 1 {
			engine.Prepare(p.Clusters[i])
			return
		}
		if errs[i] = canceled(); errs[i] == nil {
			cl := p.Clusters[i]
			raw[i], contexts[i], hits[i], errs[i] = cachedCheck(store, func() string { return resultKey(run, cl) }, engine, cl)
		}
	})
	all := make([][]check.Finding, 0, n+1)
	for i, cl := range p.Clusters {
		if errs[i] != nil {
			return nil, nil, 0, errs[i]
		}
		if hits[i] {
			reused++
		}
		all = append(all, engine.Settle(cl, raw[i]))
	}
	all = append(all, engine.Finish())
	return check.Merge(all...), contexts, reused, nil
}

// unmodelled is how much of the objects of other kinds than the mirror
// kinds the load keeps for these checks: every object whole when a policy
// reads objects of any kind, the image fields of the image-pulling kinds
// while image-pull-fails is on, else nothing (the cheapest load).
func (c *Checks) unmodelled(cfg *config.Config) manifest.Unmodelled {
	if c.Policies != nil && c.Policies.ReadsAnyKind() {
		return manifest.UnmodelledAll
	}
	if c.Rules.Get(rules.ImagePullFailsID) == nil {
		return manifest.UnmodelledNone
	}
	if cfg != nil {
		if sev, ok := cfg.Rules[rules.ImagePullFailsID]; ok {
			if s, err := check.ParseSeverity(sev); err == nil && s == check.Off {
				return manifest.UnmodelledNone
			}
		}
	}
	return manifest.UnmodelledImages
}

// narrowed is what a run reporting only on some files needs of the other
// files, given needs: needs without the kinds only rules judging them one
// object at a time read (check.Registry.Judged), with the kinds that, held
// by a reported file, make those needed from every file after all. ok is
// false when nothing can be left out (a policy may read any kind, or
// reads the judged ones).
func (c *Checks) narrowed(needs manifest.Needs) (_ manifest.Needs, relates []string, ok bool) {
	judged, relates := c.Rules.Judged()
	if c.Policies != nil {
		pn := c.Policies.Needs()
		if pn.All() {
			return needs, nil, false
		}
		read := pn.Kinds()
		judged = slices.DeleteFunc(judged, func(k string) bool { return slices.Contains(read, k) })
	}
	if len(judged) == 0 || needs.All() {
		return needs, nil, false
	}
	return needs.Without(judged...), relates, true
}

// needs is what a run with these checks reads: the kinds the rules, the
// policies and the renderer declare (see manifest.Options.Prefilter).
func (c *Checks) needs() manifest.Needs {
	n := c.Rules.Needs()
	if c.Policies != nil {
		n = n.Union(c.Policies.Needs())
	}
	return n
}
