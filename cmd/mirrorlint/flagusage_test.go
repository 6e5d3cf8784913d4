package main

import (
	"strings"
	"testing"
)

// urfave/cli turns the first backticked word of a flag's Usage into the
// placeholder shown after the flag name and prints any other backticks
// literally, so backticks may mark the placeholder and nothing else.
func TestFlagUsageBackticksMarkOnlyThePlaceholder(t *testing.T) {
	t.Parallel()
	app := newApp(nil, nil, nil)
	for _, cmd := range app.Commands {
		for _, f := range cmd.Flags {
			u, ok := f.(interface{ GetUsage() string })
			if !ok {
				continue
			}
			if n := strings.Count(u.GetUsage(), "`"); n != 0 && n != 2 {
				t.Errorf("%s --%s: usage has %d backticks, want one pair around the placeholder: %q", cmd.Name, f.Names()[0], n, u.GetUsage())
			}
		}
		r := mlRun(t, "", cmd.Name, "--help")
		for _, line := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "--") && strings.Contains(line, "`") {
				t.Errorf("%s --help prints a backtick in a flag line:\n%s", cmd.Name, line)
			}
		}
	}
	r := mlRun(t, "", "lint", "--help")
	if !strings.Contains(r.stdout, "--cluster NAME ") {
		t.Errorf("lint --help does not show --cluster NAME:\n%s", r.stdout)
	}
}
