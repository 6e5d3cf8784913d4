package project

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
)

// The signature policy settings: the feature set from the config or the
// flag (the flag wins, unknown names are refused with the key's place),
// and the default ClusterImagePolicy turned off by either.
func TestSignatureSettings(t *testing.T) {
	cfg, err := config.Parse(".mirrorlint.yaml", []byte("featureSet: TechPreviewNoUpgrade\ndefaultClusterImagePolicy: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ResolveSettings(Options{}, cfg)
	if err != nil || s.FeatureSet != "TechPreviewNoUpgrade" || !s.NoDefaultPolicy {
		t.Errorf("from the config: %+v, %v", s, err)
	}
	s, err = ResolveSettings(Options{FeatureSet: "Default"}, cfg)
	if err != nil || s.FeatureSet != "Default" {
		t.Errorf("the flag wins: %+v, %v", s, err)
	}
	s, err = ResolveSettings(Options{NoDefaultPolicy: true}, &config.Config{})
	if err != nil || !s.NoDefaultPolicy || s.FeatureSet != "" {
		t.Errorf("--no-default-cluster-image-policy: %+v, %v", s, err)
	}
	bad, _ := config.Parse(".mirrorlint.yaml", []byte("featureSet: TechPreview\n"))
	if _, err := ResolveSettings(Options{}, bad); err == nil || !strings.Contains(err.Error(), ".mirrorlint.yaml:1: featureSet: unknown feature set \"TechPreview\"") {
		t.Errorf("unknown feature set: %v", err)
	}
	if _, err := config.Parse(".mirrorlint.yaml", []byte("featureset: Default\n")); err == nil || !strings.Contains(err.Error(), `did you mean "featureSet"`) {
		t.Errorf("misspelt key: %v", err)
	}
}

// A release the flag or the config gives is the run's, not one assumed:
// the inputs are then read as it, a spoke's own release included.
func TestVersionGivenOrAssumed(t *testing.T) {
	cfg, err := config.Parse(".mirrorlint.yaml", []byte("openshiftVersion: \"4.16\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		opts    Options
		cfg     *config.Config
		assumed bool
		want    string
	}{
		{"nothing", Options{}, &config.Config{}, true, "4.21"},
		{"the config", Options{}, cfg, false, "4.16"},
		{"the flag", Options{OpenShiftVersion: "4.13.30"}, cfg, false, "4.13.30"},
	} {
		s, err := ResolveSettings(tc.opts, tc.cfg)
		if err != nil || s.VersionAssumed != tc.assumed || s.Version.String() != tc.want {
			t.Errorf("%s: version %v, assumed %v (%v); want %s, %v", tc.name, s.Version, s.VersionAssumed, err, tc.want, tc.assumed)
		}
	}
}
