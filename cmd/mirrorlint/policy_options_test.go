package main

import (
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
)

// The policy flags given on the command line win over the config file,
// and the ones not given leave the config's values.
func TestPolicyFlagsOverrideTheConfig(t *testing.T) {
	t.Parallel()
	cfg := &config.Config{AllowNet: true, Strict: true, PolicyTimeout: "1m", PolicyMemory: 256}
	parse := func(args ...string) policy.Options {
		t.Helper()
		var got policy.Options
		app := &cli.App{Flags: policyFlags(), Action: func(c *cli.Context) error {
			var err error
			got, err = policyOptions(c, cfg)
			return err
		}}
		runMu.Lock() // urfave/cli writes its globals on every Run (see runMu)
		err := app.Run(append([]string{"x"}, args...))
		runMu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if o := parse(); !o.AllowNet || !o.Strict || o.Timeout != time.Minute || o.Memory != 256<<20 {
		t.Errorf("no flags: %+v, want the config's allowNet, strict, 1m and 256 MiB", o)
	}
	if o := parse("--allow-net=false", "--strict=false", "--policy-timeout", "5s", "--policy-memory", "2048"); o.AllowNet || o.Strict || o.Timeout != 5*time.Second || o.Memory != 2048<<20 {
		t.Errorf("flags given: %+v, want allowNet and strict off, 5s, 2048 MiB", o)
	}
}
