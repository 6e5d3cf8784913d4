package main

import (
	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/ruledoc"
)

func rulesCommand() *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the rules, or print one rule's documentation",
		ArgsUsage: "[ID]",
		Description: `Without an argument, lists every rule with its default severity, who acts on what
it detects (api-server, mco, node, surprise, policy, mirrorlint) and a one-line summary:
the built-in Go rules, the built-in Rego library, and the rules of the policies given with
--policy (or in the config). With a rule id, prints that rule's documentation: why it
matters, what the cluster does, how to fix it, an example.

Examples:
  mirrorlint rules
  mirrorlint rules conflicting-source-policy
  mirrorlint rules --policy policy/ --format json`,
		Flags: []cli.Flag{configFlag(), policyFlag(), dataFlag(),
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, markdown (the page docs/rules.md) or json"}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return fail(exitUsage, "rules takes at most one rule id")
			}
			reg, err := allRules(c)
			if err != nil {
				return err
			}
			if id := c.Args().First(); id != "" {
				r := reg.Get(id)
				if r == nil {
					return fail(exitUsage, "no rule %q; `mirrorlint rules` lists them", id)
				}
				return ruledoc.One(c.App.Writer, r)
			}
			switch c.String("format") {
			case "text":
				return ruledoc.Text(c.App.Writer, reg.All())
			case "markdown":
				return ruledoc.Markdown(c.App.Writer, reg.All())
			case "json":
				return ruledoc.JSON(c.App.Writer, reg.All())
			}
			return fail(exitUsage, "--format %q: want text, markdown or json", c.String("format"))
		},
	}
}

// allRules is every rule a lint run with the same settings could report.
func allRules(c *cli.Context) (*check.Registry, error) {
	cfg, err := project.LoadConfig(project.Options{ConfigPath: c.String(configName)})
	if err != nil {
		return nil, err
	}
	o, err := policyOptions(c, cfg)
	if err != nil {
		return nil, err
	}
	checks, err := loadChecks(o)
	if err != nil {
		return nil, err
	}
	return checks.Rules, nil
}
