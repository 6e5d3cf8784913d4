package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/lint"
	"github.com/mirrorlint/mirrorlint/internal/rules"
)

func rulesCommand() *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the rules, or print one rule's documentation",
		ArgsUsage: "[ID]",
		Description: `Without an argument, lists every rule with its default severity, who acts on what
it detects (api-server, mco, node, surprise, policy) and a one-line summary. With a rule
id, prints that rule's documentation: why it matters, what the cluster does, how to
fix it, an example.`,
		Action: func(c *cli.Context) error {
			reg := rules.Registry()
			if c.NArg() > 1 {
				return fail(exitUsage, "rules takes at most one rule id")
			}
			if id := c.Args().First(); id != "" {
				r := reg.Get(id)
				if r == nil {
					return fail(exitUsage, "no rule %q; `mirrorlint rules` lists them", id)
				}
				fmt.Fprintf(c.App.Writer, "%s (%s, %s)\n\n%s\n\n%s\n", r.ID, r.Severity, r.Origin, r.Summary, strings.TrimSpace(r.Doc))
				return nil
			}
			return listRules(c, reg.All())
		},
	}
}

func listRules(c *cli.Context, all []*lint.Rule) error {
	tw := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSEVERITY\tORIGIN\tSUMMARY")
	for _, r := range all {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Origin, r.Summary)
	}
	return tw.Flush()
}
