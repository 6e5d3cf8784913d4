package check

import (
	"fmt"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/config"
)

// Severity orders findings; Off disables a rule.
type Severity int

const (
	Off Severity = iota
	Info
	Warning
	Error
)

var severityNames = [...]string{"off", "info", "warning", "error"}

func (s Severity) String() string {
	if s < Off || s > Error {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity reads "off", "info", "warning" (or "warn") and "error".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "none", "disabled":
		return Off, nil
	case "info", "notice":
		return Info, nil
	case "warning", "warn":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return Off, fmt.Errorf("unknown severity %q: want error, warning, info or off", s)
}

func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	*s = v
	return err
}

// FailOn is the severity at which a run fails: flag (--fail-on) when
// given, else the config's failOn, else Error. Off is not a threshold.
func FailOn(flag string, cfg *config.Config) (Severity, error) {
	v, from := flag, "--fail-on"
	if v == "" && cfg != nil {
		v, from = cfg.FailOn, cfg.Where("failOn")
	}
	if v == "" {
		return Error, nil
	}
	s, err := ParseSeverity(v)
	if err != nil || s == Off {
		return 0, fmt.Errorf("%s: %q is not a severity: want error, warning or info", from, v)
	}
	return s, nil
}
