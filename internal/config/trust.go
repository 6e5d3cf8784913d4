package config

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// Refused is a setting of a config found in the tree that would widen
// what a run may read, reach or spend, and was therefore not applied.
type Refused struct {
	Key     string // dotted key, as Where takes it
	Line    int
	Message string // Setting, why it was refused and the command line's remedy
	// Setting is the key and what it would have done, without a remedy:
	// for callers whose users have no command line to pass it on (the
	// KRM function).
	Setting string
	// What is the key and what it would have done, without the file.
	What string
	// Remedy is how a command line gives the setting: a flag, or where
	// else it may come from.
	Remedy string
}

// limitRule is the id of the rule reporting a run stopped at a limit
// (check.LimitRule, which this package cannot import).
const limitRule = "limit-exceeded"

// Distrust removes from c, a config found in the repository rather than
// named with --config, every setting that widens the run: allowNet, data
// files, policy and source CR directories outside root, cluster paths
// outside root, a policyTimeout longer than maxTimeout, a policyMemory
// above maxMemory MiB, limit-exceeded set below error. Whoever can commit to the tree
// (a fork's pull request) writes this file; only the command line may
// widen what the run touches. It returns what it removed.
func (c *Config) Distrust(root string, maxTimeout time.Duration, maxMemory int) []Refused {
	if c == nil {
		return nil
	}
	c.Distrusted = true
	var out []Refused
	refuse := func(key, msg, remedy string) {
		setting := c.Where(key) + ": " + msg
		out = append(out, Refused{Key: key, Line: c.lines[key], Setting: setting, What: key + ": " + msg, Remedy: remedy, Message: fmt.Sprintf(
			"%s (use %s); refused from a config found in the repository — a pull request could set it. Pass the matching flag, or name the config with --config", setting, remedy)})
	}
	r := safefs.New(0, root)
	inside := func(p string) bool {
		p = c.Resolve(p)
		if _, err := r.Resolve(p); err == nil {
			return true
		} else if _, isRefusal := err.(*safefs.Refusal); isRefusal {
			return false
		}
		// Not there (yet): judge the spelling, the only thing there is.
		abs, err := filepath.Abs(p)
		rootAbs, rerr := filepath.Abs(root)
		return err == nil && rerr == nil && safefs.Within(rootAbs, abs)
	}
	if c.AllowNet {
		refuse("allowNet", "allowNet: true lets policies reach the network", "--allow-net")
		c.AllowNet = false
	}
	if c.PolicyTimeout != "" {
		if d, err := time.ParseDuration(c.PolicyTimeout); err == nil && d > maxTimeout {
			refuse("policyTimeout", fmt.Sprintf("policyTimeout %s is longer than the default %s", c.PolicyTimeout, maxTimeout), "--policy-timeout")
			c.PolicyTimeout = ""
		}
	}
	if c.PolicyMemory > maxMemory {
		refuse("policyMemory", fmt.Sprintf("policyMemory %d MiB is more than the default %d MiB", c.PolicyMemory, maxMemory), "--policy-memory")
		c.PolicyMemory = 0
	}
	// A limit-exceeded error says part of the run was not checked; turned
	// off or down, a pull request could hide that its tree stopped the run.
	if sev, ok := c.Rules[limitRule]; ok && sev != "error" {
		refuse("rules."+limitRule, fmt.Sprintf("rules: {%s: %s} hides that part of the run was not checked", limitRule, sev), "a config named with --config")
		delete(c.Rules, limitRule)
	}
	// keepInside keeps the directories or files of list inside root and
	// refuses the others under key[i].
	keepInside := func(list []string, key, what, flag string) []string {
		kept := list[:0]
		for i, d := range list {
			if inside(d) {
				kept = append(kept, d)
				continue
			}
			refuse(fmt.Sprintf("%s[%d]", key, i), fmt.Sprintf("%s %s is outside the repository", what, d), flag)
		}
		return kept
	}
	c.Data = keepInside(c.Data, "data", "data file", "--data")
	c.Policies = keepInside(c.Policies, "policies", "policy directory", "--policy")
	c.SourceCRs = keepInside(c.SourceCRs, "sourceCRs", "source CR directory", "a config named with --config")
	keepC := c.Clusters[:0]
	for i, cl := range c.Clusters {
		paths := cl.Paths[:0]
		for j, p := range cl.Paths {
			if inside(p) {
				paths = append(paths, p)
				continue
			}
			refuse(fmt.Sprintf("clusters[%d].paths[%d]", i, j), fmt.Sprintf("cluster %s reads %s, outside the repository", cl.Name, p), "the path on the command line")
		}
		cl.Paths = paths
		if len(paths) > 0 {
			keepC = append(keepC, cl)
		}
	}
	c.Clusters = keepC
	return out
}
