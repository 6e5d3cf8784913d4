package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// Rego policy flags, shared by lint and verify.
func policyFlag() *cli.StringSliceFlag {
	return &cli.StringSliceFlag{
		Name:  policyName,
		Usage: "Rego policy `DIR` (or .rego file), repeatable; every package in it is evaluated (also policies: in the config)",
	}
}

func dataFlag() *cli.StringSliceFlag {
	return &cli.StringSliceFlag{
		Name:  dataName,
		Usage: "YAML or JSON data `FILE` for the policies, repeatable (also data: in the config)",
	}
}

func allowNetFlag() *cli.BoolFlag {
	return &cli.BoolFlag{
		Name:  allowNetName,
		Usage: "let policies use the network builtins (http.send, net.lookup_ip_addr); off by default so a lint run is hermetic",
	}
}

func strictFlag() *cli.BoolFlag {
	return &cli.BoolFlag{
		Name:  strictName,
		Usage: "a policy builtin that fails (to_number(\"abc\"), a bad regex) is an error with its file:line:col, not a quietly undefined rule (also strict: in the config)",
	}
}

func policyTimeoutFlag() *cli.DurationFlag {
	return &cli.DurationFlag{
		Name:  policyTimeoutName,
		Usage: "stop a policy evaluation that runs longer than `DURATION` (per cluster, e.g. 30s)",
		Value: policy.DefaultTimeout,
	}
}

func policyMemoryFlag() *cli.IntFlag {
	return &cli.IntFlag{
		Name:  policyMemoryName,
		Usage: "stop a policy evaluation that grows the heap by more than `MIB` mebibytes (per cluster; GOMEMLIMIT or ulimit -v may lower it)",
		Value: policy.DefaultMemory >> 20,
	}
}

func policyFlags() []cli.Flag {
	return []cli.Flag{policyFlag(), dataFlag(), allowNetFlag(), policyTimeoutFlag(), policyMemoryFlag(), strictFlag()}
}

// policyOptions lays the flags given over the config file
// (policy.Settle, as the lint library does): a flag on the command line wins, an unset one
// leaves the config's value or the default.
func policyOptions(c *cli.Context, cfg *config.Config) (policy.Options, error) {
	g := policy.Given{Dirs: c.StringSlice(policyName), DataFiles: c.StringSlice(dataName)}
	if c.IsSet(allowNetName) {
		v := c.Bool(allowNetName)
		g.AllowNet = &v
	}
	if c.IsSet(strictName) {
		v := c.Bool(strictName)
		g.Strict = &v
	}
	if c.IsSet(policyTimeoutName) {
		d := c.Duration(policyTimeoutName)
		g.Timeout = &d
	}
	if c.IsSet(policyMemoryName) {
		mib := c.Int(policyMemoryName)
		if mib <= 0 {
			return policy.Options{}, &project.UsageError{Err: fmt.Errorf("--%s %d: give the MiB one policy evaluation may build, e.g. %d", policyMemoryName, mib, policy.DefaultMemory>>20)}
		}
		b := int64(mib) << 20
		g.Memory = &b
	}
	o, err := policy.Settle(cfg, g)
	if err != nil {
		return o, &project.UsageError{Err: err}
	}
	return o, nil
}

// loadChecks compiles the built-in library and the user's policies once
// and returns every rule a run can report: the built-in Go rules and the
// policies' rules. A policy that does not compile is a usage error (exit 2).
func loadChecks(o policy.Options) (*pipeline.Checks, error) {
	c, err := pipeline.LoadChecks(o)
	if err != nil {
		return nil, &project.UsageError{Err: err}
	}
	return c, nil
}

// failOn is check.FailOn, a bad value being a usage error.
func failOn(flag string, cfg *config.Config) (check.Severity, error) {
	s, err := check.FailOn(flag, cfg)
	if err != nil {
		return 0, &project.UsageError{Err: err}
	}
	return s, nil
}
