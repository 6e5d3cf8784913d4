package policy

import (
	"fmt"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/config"
)

// DefaultTimeout bounds one evaluation when Options.Timeout is zero: far
// above what a sane policy needs on a large repository (milliseconds), low
// enough that a runaway policy does not hold a CI job for long.
const DefaultTimeout = 10 * time.Second

// Options says which policies to load and how they may run.
type Options struct {
	// Dirs are policy directories (or single .rego files), walked
	// recursively. Files ending in _test.rego are compiled for Verify only.
	Dirs []string
	// DataFiles are YAML or JSON documents merged into data; the built-in
	// library reads its configuration from data.mirrorlint.
	DataFiles []string
	// AllowNet re-enables the builtins that reach the network (http.send,
	// net.lookup_ip_addr). Environment and randomness stay disabled.
	AllowNet bool
	// Timeout bounds one evaluation (and one Verify run); 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// Builtin includes the embedded library from policies/.
	Builtin bool
	// Memory is how many bytes the heap may grow by during one
	// evaluation (see heap.go); 0 means DefaultMemory. GOMEMLIMIT and an
	// address-space limit may lower it.
	Memory int64
	// Strict makes an error in a builtin call (to_number("abc"), a bad
	// regex) an error of the run, with its file:line:col, instead of
	// leaving the rule quietly undefined as Rego does by default.
	Strict bool
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

func (o Options) memory() int64 {
	if o.Memory <= 0 {
		return DefaultMemory
	}
	return o.Memory
}

// OptionsFrom is the policy part of a config: the built-in library, the
// config's policy directories and data files (relative to the config
// file), allowNet, policyTimeout and policyMemory (MiB). A nil config gives the built-in
// library alone.
func OptionsFrom(cfg *config.Config) (Options, error) {
	o := Options{Builtin: true}
	if cfg == nil {
		return o, nil
	}
	for _, d := range cfg.Policies {
		o.Dirs = append(o.Dirs, cfg.Resolve(d))
	}
	for _, d := range cfg.Data {
		o.DataFiles = append(o.DataFiles, cfg.Resolve(d))
	}
	o.AllowNet = cfg.AllowNet
	o.Strict = cfg.Strict
	if cfg.PolicyTimeout != "" {
		d, err := time.ParseDuration(cfg.PolicyTimeout)
		if err != nil {
			if cfg.Path == "" {
				return o, fmt.Errorf("policyTimeout: %w", err)
			}
			return o, fmt.Errorf("%s: policyTimeout: %w", cfg.Path, err)
		}
		o.Timeout = d
	}
	if cfg.PolicyMemory < 0 {
		err := fmt.Errorf("policyMemory: %d is not a size: give the MiB an evaluation may build, e.g. %d", cfg.PolicyMemory, DefaultMemory>>20)
		if cfg.Path != "" {
			err = fmt.Errorf("%s: %w", cfg.Path, err)
		}
		return o, err
	}
	o.Memory = int64(cfg.PolicyMemory) << 20
	return o, nil
}

// Settle is a run's policy options: the config's (OptionsFrom) with what
// the caller set laid over them (Over). The command line and the lint
// library both take their options from here, so that they agree.
func Settle(cfg *config.Config, g Given) (Options, error) {
	o, err := OptionsFrom(cfg)
	if err != nil {
		return o, err
	}
	return o.Over(g), nil
}

// Given is what a caller set itself (command-line flags, library options).
// Unset fields are nil: they leave the config's value, or the default.
type Given struct {
	Dirs, DataFiles []string // added after the config's
	AllowNet        *bool
	Strict          *bool
	Timeout         *time.Duration
	Memory          *int64 // bytes
}

// Over lays g over o (the config's options, from OptionsFrom): what g sets
// wins, so flags override the config file, which overrides the defaults.
// Policy directories and data files add up: the config's come first.
func (o Options) Over(g Given) Options {
	o.Dirs = append(o.Dirs, g.Dirs...)
	o.DataFiles = append(o.DataFiles, g.DataFiles...)
	if g.AllowNet != nil {
		o.AllowNet = *g.AllowNet
	}
	if g.Strict != nil {
		o.Strict = *g.Strict
	}
	if g.Timeout != nil {
		o.Timeout = *g.Timeout
	}
	if g.Memory != nil {
		o.Memory = *g.Memory
	}
	return o
}
