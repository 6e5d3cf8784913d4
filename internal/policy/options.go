package policy

import "time"

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
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}
