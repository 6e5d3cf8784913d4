package suggest

import "testing"

func TestClosest(t *testing.T) {
	policies := []string{"NeverContactSource", "AllowContactingSource"}
	cases := []struct {
		s    string
		max  int
		want string
	}{
		{"NeverContactsource", 6, "NeverContactSource"}, // case only
		{"Never", 6, "NeverContactSource"},              // prefix of four letters or more
		{"AllowContactSource", 6, "AllowContactingSource"},
		{"Sometimes", 2, ""},
	}
	for _, c := range cases {
		if got := Closest(c.s, policies, c.max); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestTypoIgnoresUnrelatedNames(t *testing.T) {
	flags := []string{"format", "f", "fail-on", "cluster", "config", "base"}
	cases := map[string]string{
		"formt":   "format",
		"form":    "format",
		"clster":  "cluster",
		"bogus":   "",
		"x":       "",
		"failon":  "fail-on",
		"confgi":  "config",
		"release": "",
	}
	for typed, want := range cases {
		if got := Typo(typed, flags); got != want {
			t.Errorf("Typo(%q) = %q, want %q", typed, got, want)
		}
	}
}
