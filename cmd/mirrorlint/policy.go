package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/checks"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/lint"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// Rego policy flags, shared by lint and verify.
var (
	policyFlag = &cli.StringSliceFlag{
		Name:  "policy",
		Usage: "Rego policy `DIR` (or .rego file), repeatable; every package in it is evaluated (also policies: in the config)",
	}
	dataFlag = &cli.StringSliceFlag{
		Name:  "data",
		Usage: "YAML or JSON data `FILE` for the policies, repeatable (also data: in the config)",
	}
	allowNetFlag = &cli.BoolFlag{
		Name:  "allow-net",
		Usage: "let policies use the network builtins (http.send, net.lookup_ip_addr); off by default so a lint run is hermetic",
	}
	policyTimeoutFlag = &cli.DurationFlag{
		Name:  "policy-timeout",
		Usage: "stop a policy evaluation that runs longer than `DURATION` (per cluster, e.g. 30s)",
		Value: policy.DefaultTimeout,
	}
)

func policyFlags() []cli.Flag {
	return []cli.Flag{policyFlag, dataFlag, allowNetFlag, policyTimeoutFlag}
}

// policyOptions merges the flags over the config file; flags add to the
// config's directories and data files.
func policyOptions(c *cli.Context, cfg *config.Config) (policy.Options, error) {
	o := policy.Options{Builtin: true, AllowNet: c.Bool(allowNetFlag.Name), Timeout: c.Duration(policyTimeoutFlag.Name)}
	if cfg != nil {
		for _, d := range cfg.Policies {
			o.Dirs = append(o.Dirs, cfg.Resolve(d))
		}
		for _, d := range cfg.Data {
			o.DataFiles = append(o.DataFiles, cfg.Resolve(d))
		}
		o.AllowNet = o.AllowNet || cfg.AllowNet
		if cfg.PolicyTimeout != "" && !c.IsSet(policyTimeoutFlag.Name) {
			d, err := time.ParseDuration(cfg.PolicyTimeout)
			if err != nil {
				return o, &project.UsageError{Err: fmt.Errorf("%s: policyTimeout: %w", cfg.Path, err)}
			}
			o.Timeout = d
		}
	}
	o.Dirs = append(o.Dirs, c.StringSlice(policyFlag.Name)...)
	o.DataFiles = append(o.DataFiles, c.StringSlice(dataFlag.Name)...)
	return o, nil
}

// loadPolicies compiles the built-in library and the user's policies once;
// a policy that does not compile is a usage error (exit 2).
func loadPolicies(o policy.Options) (*policy.Engine, error) {
	pe, err := policy.Load(o)
	if err != nil {
		return nil, &project.UsageError{Err: err}
	}
	return pe, nil
}

// registry is every rule a run can report: the built-in Go rules and the
// policies' rules (the built-in library's and the user's).
func registry(pe *policy.Engine) (*lint.Registry, error) {
	reg, err := checks.Registry(pe)
	if err != nil {
		return nil, &project.UsageError{Err: err}
	}
	return reg, nil
}
