package scopes

import "testing"

func TestValidators(t *testing.T) {
	for _, tc := range []struct {
		s              string
		source, mirror bool
	}{
		{"quay.io/org/app", true, true},
		{"Quay.IO/org", true, true},
		{"quay.io/MyOrg", false, false},
		{"*.example.com", true, false},
		{"*.example.com/x", false, false},
		{"localhost:5000/a_b/c__d/e-f", true, true},
		{"quay.io/a@sha256:abc", false, false},
		{"quay.io/a:tag", false, false},
		{"quay.io/", false, false},
		{"http://quay.io", false, false},
		{"", false, false},
		{"quay.io/foo bar", false, false},
	} {
		if got := ValidSource(tc.s); got != tc.source {
			t.Errorf("ValidSource(%q) = %v", tc.s, got)
		}
		if got := ValidMirror(tc.s); got != tc.mirror {
			t.Errorf("ValidMirror(%q) = %v", tc.s, got)
		}
	}
	for s, want := range map[string]bool{
		"":                  false,
		"quay.io":           true,
		"http://quay.io":    true, // MCO lets it through; the node rejects it
		"*.example.com":     true,
		"*.example.com:500": false,
		"*.example.com/ns":  false,
		"a.*.com":           false,
		"*":                 false,
	} {
		if got := ValidScope(s); got != want {
			t.Errorf("ValidScope(%q) = %v, want %v", s, got, want)
		}
	}
}
