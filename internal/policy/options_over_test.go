package policy

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/config"
)

// Flags override the config file, which overrides the defaults; a flag
// not given leaves the config's value. Directories and data files add up.
func TestGivenOverridesConfigWhichOverridesDefaults(t *testing.T) {
	t.Parallel()
	on, off := true, false
	minute, second := time.Minute, time.Second
	var mib64 int64 = 64 << 20
	cfg := &config.Config{AllowNet: true, Strict: true, PolicyTimeout: "1m", PolicyMemory: 256, Policies: []string{"/cfg/p"}, Data: []string{"/cfg/d.yaml"}}
	for _, tc := range []struct {
		name             string
		cfg              *config.Config
		given            Given
		allowNet, strict bool
		timeout          time.Duration
		memory           int64
	}{
		{"defaults", nil, Given{}, false, false, DefaultTimeout, DefaultMemory},
		{"config over defaults", cfg, Given{}, true, true, minute, 256 << 20},
		{"flags over defaults", nil, Given{AllowNet: &on, Strict: &on, Timeout: &second, Memory: &mib64}, true, true, second, mib64},
		{"flags off over config on", cfg, Given{AllowNet: &off, Strict: &off, Timeout: &second, Memory: &mib64}, false, false, second, mib64},
		{"one flag, the rest from the config", cfg, Given{Strict: &off}, true, false, minute, 256 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := Settle(tc.cfg, tc.given)
			if err != nil {
				t.Fatal(err)
			}
			if o.AllowNet != tc.allowNet || o.Strict != tc.strict || o.timeout() != tc.timeout || o.memory() != tc.memory {
				t.Errorf("allowNet %v strict %v timeout %v memory %d, want %v %v %v %d", o.AllowNet, o.Strict, o.timeout(), o.memory(), tc.allowNet, tc.strict, tc.timeout, tc.memory)
			}
		})
	}
	o, err := Settle(cfg, Given{Dirs: []string{"/flag/p"}, DataFiles: []string{"/flag/d.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.Dirs, []string{"/cfg/p", "/flag/p"}) || !slices.Equal(o.DataFiles, []string{"/cfg/d.yaml", "/flag/d.yaml"}) {
		t.Errorf("dirs %v data %v, want the config's then the flags'", o.Dirs, o.DataFiles)
	}
}

// A config whose policyTimeout does not parse is refused, naming the file,
// whatever the caller sets over it.
func TestSettleRefusesBadConfigTimeout(t *testing.T) {
	t.Parallel()
	second := time.Second
	_, err := Settle(&config.Config{Path: ".mirrorlint.yaml", PolicyTimeout: "soon"}, Given{Timeout: &second})
	if err == nil || !strings.HasPrefix(err.Error(), ".mirrorlint.yaml: policyTimeout: ") {
		t.Errorf("err %v, want one naming .mirrorlint.yaml and policyTimeout", err)
	}
}

// A negative policyMemory is refused the same way.
func TestSettleRefusesNegativeConfigMemory(t *testing.T) {
	t.Parallel()
	_, err := Settle(&config.Config{Path: ".mirrorlint.yaml", PolicyMemory: -1}, Given{})
	if err == nil || !strings.HasPrefix(err.Error(), ".mirrorlint.yaml: policyMemory: -1 is not a size") {
		t.Errorf("err %v, want one naming .mirrorlint.yaml and policyMemory", err)
	}
}
