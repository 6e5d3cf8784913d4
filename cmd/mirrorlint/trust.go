package main

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/report"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// distrustFoundConfig strips a config found in the tree (not named with
// --config) of the settings that widen the run, and returns one error
// finding per setting refused (project.LoadConfig strips them), at its line: a pull request writes that
// file, and only the command line may widen what a run reads, reaches or
// spends. A config named with --config is the caller's and is trusted:
// the paths it names join what the run may read.
func distrustFoundConfig(c *cli.Context, cfg *config.Config, access *safefs.Root) []check.Finding {
	if cfg == nil || cfg.Path == "" {
		return nil
	}
	if c.IsSet(configName) {
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
	var out []check.Finding
	for _, r := range cfg.Refused {
		out = append(out, check.Finding{
			Rule: check.ProblemRule.ID, Severity: check.Error, Message: r.Message,
			Position: manifest.Position{File: cfg.Path, Line: r.Line, Column: 1},
		})
	}
	check.Sort(out)
	return out
}

// warnRefusedConfig prints on stderr, for the commands that have no
// findings to carry them, the settings of a config found in the tree that
// were refused (project.LoadConfig strips them); the run goes on without.
func warnRefusedConfig(c *cli.Context, cfg *config.Config) {
	if cfg == nil || len(cfg.Refused) == 0 {
		return
	}
	w := report.SafeLog(c.App.ErrWriter)
	for _, r := range cfg.Refused {
		fmt.Fprintf(w, "mirrorlint: warning: %s\n", r.Message)
	}
	_ = w.Flush()
}
