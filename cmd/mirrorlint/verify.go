package main

import (
	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "run the Rego policies' unit tests",
		Description: `Runs every test_ rule in the *_test.rego files of the policy directories, like
` + "`opa test -v`" + `: PASS, FAIL or ERROR per test, a failing test with its file:line.
Without --policy (and without policies: in the config), tests the built-in library
shipped in the binary. With --strict (or strict: in the config), a test in which a
builtin call fails (to_number("abc"), a bad regex) is an ERROR, as it would stop a
lint --strict run, instead of a quietly undefined rule. The tests are bounded as the
policies of a lint run are: --policy-timeout for the whole run, and --policy-memory
of heap growth (lowered to fit GOMEMLIMIT or ulimit -v); a test stopped there is an
ERROR saying so, and the tests after it do not run.

Exit codes: 0 every test passed; 1 a test failed; 2 a policy does not compile or a
directory cannot be read.

Example:
  mirrorlint verify --policy policy/`,
		Flags: append(policyFlags(), configFlag()),
		Action: func(c *cli.Context) error {
			cfg, err := project.LoadConfig(project.Options{ConfigPath: c.String(configName), Repository: repositoryAt(gitTopLevel())})
			if err != nil {
				return err
			}
			warnRefusedConfig(c, cfg)
			o, err := policyOptions(c, cfg)
			if err != nil {
				return err
			}
			// The built-in library is tested on its own: with policy
			// directories (flags or config) only the team's tests run.
			o.Builtin = len(o.Dirs) == 0
			failed, err := policy.Verify(o, c.App.Writer)
			if err != nil {
				return fail(exitUsage, "%v", err)
			}
			if failed {
				return fail(exitFindings, "")
			}
			return nil
		},
	}
}
