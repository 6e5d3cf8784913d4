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

// OptionsFrom is the policy part of a config: the built-in library, the
// config's policy directories and data files (relative to the config
// file), allowNet and policyTimeout. A nil config gives the built-in
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
	return o, nil
}
