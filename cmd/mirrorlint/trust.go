package main

import (
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// distrustFoundConfig strips a config found in the tree (not named with
// --config) of the settings that widen the run, and returns one error
// finding per setting refused, at its line: a pull request writes that
// file, and only the command line may widen what a run reads, reaches or
// spends. A config named with --config is the caller's and is trusted:
// the paths it names join what the run may read.
func distrustFoundConfig(c *cli.Context, cfg *config.Config, top string, access *safefs.Root) []check.Finding {
	if cfg == nil || cfg.Path == "" {
		return nil
	}
	if c.IsSet(configFlag.Name) {
		for _, p := range append(slices.Clone(cfg.Data), cfg.Policies...) {
			access.Allow(cfg.Resolve(p))
		}
		for _, cl := range cfg.Clusters {
			for _, p := range cl.Paths {
				access.Allow(cfg.Resolve(p))
			}
		}
		return nil
	}
	root := top
	if root == "" {
		root, _ = os.Getwd()
	}
	var out []check.Finding
	for _, r := range cfg.Distrust(root, policy.DefaultTimeout) {
		out = append(out, check.Finding{
			Rule: check.ProblemRule.ID, Severity: check.Error, Message: r.Message,
			Position: manifest.Position{File: cfg.Path, Line: r.Line, Column: 1},
		})
	}
	check.Sort(out)
	return out
}
