package main

import (
	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/checks"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// narrow prepares a run that reports on given files only (pre-commit): the
// rules and policies are loaded first, so that the project loads only the
// clusters that read those files and parses only the files that may hold
// what the checks read. Other runs return nil and load everything.
func (s *lintScope) narrow(c *cli.Context, opts *project.Options) (*check.Registry, *policy.Engine, error) {
	if s.only == nil {
		return nil, nil, nil
	}
	cfg, err := project.LoadConfig(*opts)
	if err != nil {
		return nil, nil, err
	}
	popts, err := policyOptions(c, cfg)
	if err != nil {
		return nil, nil, err
	}
	reg, pe, err := loadChecks(popts)
	if err != nil {
		return nil, nil, err
	}
	needs := checks.Needs(reg, pe)
	opts.Only, opts.Needs = s.only, &needs
	return reg, pe, nil
}
