package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// compactFlagStringer keeps --help readable at 80 columns: urfave/cli
// prints a repeatable flag's names twice ("--policy DIR [ --policy DIR ]"),
// which pushes every description far to the right; the repetition is
// written in the usage text instead.
func compactFlagStringer(defaultStringer cli.FlagStringFunc) cli.FlagStringFunc {
	return func(f cli.Flag) string {
		s := defaultStringer(f)
		names, usage, ok := strings.Cut(s, "\t")
		if !ok {
			return s
		}
		if i := strings.Index(names, " [ "); i >= 0 && strings.HasSuffix(names, " ]") {
			names = names[:i]
		}
		return names + "\t" + usage
	}
}
