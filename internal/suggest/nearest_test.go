package suggest

import (
	"strings"
	"testing"
)

// TestNearest: a mistyped or partial cluster name gets the few closest
// names of a fleet, not all of them.
func TestNearest(t *testing.T) {
	var fleet []string
	for _, s := range []string{"0001", "0002", "0010", "0100", "0101"} {
		fleet = append(fleet, "sites/site-"+s)
	}
	fleet = append(fleet, "overlays/prod-east", "overlays/prod-west", "clusters/hub",
		"ztp-spoke/sno-a", "ztp-spoke/sno-b", "site-policies/Policy/ztp-common/common-config-policy", "snow")
	for _, tc := range []struct {
		typed string
		want  string
	}{
		// Names that start with what was typed come first.
		{"sites/site-001", "sites/site-0010 sites/site-0001 sites/site-0101"},
		{"sites/site-01", "sites/site-0100 sites/site-0101 sites/site-0001"},
		{"overlays/prod", "overlays/prod-east overlays/prod-west"},
		{"prod-east", "overlays/prod-east overlays/prod-west"},
		{"overlays/prod-eats", "overlays/prod-east overlays/prod-west"},
		{"hub", "clusters/hub"},
		{"nothing-like-it", ""},
		// A bare name is also the start of a last element: every
		// name sharing it comes before names only a few edits away.
		{"prod", "overlays/prod-east overlays/prod-west"},
		{"sno", "snow ztp-spoke/sno-a ztp-spoke/sno-b"},
		{"sno-", "ztp-spoke/sno-a ztp-spoke/sno-b snow"},
		{"common-config", "site-policies/Policy/ztp-common/common-config-policy"},
		{"ztp-spoke/sno", "ztp-spoke/sno-a ztp-spoke/sno-b snow"},
	} {
		if got := strings.Join(Nearest(tc.typed, fleet, 3), " "); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.typed, got, tc.want)
		}
	}
}
