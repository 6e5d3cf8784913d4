package main

import (
	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/policy"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "run the Rego policies' unit tests",
		Description: `Runs every test_ rule in the *_test.rego files of the policy directories, like
` + "`opa test -v`" + `: PASS, FAIL or ERROR per test, a failing test with its file:line.
Without --policy, tests the built-in library shipped in the binary.

Exit codes: 0 every test passed; 1 a test failed; 2 a policy does not compile or a
directory cannot be read.

Example:
  mirrorlint verify --policy policy/`,
		Flags: []cli.Flag{policyFlag, dataFlag, allowNetFlag, policyTimeoutFlag, configFlag},
		Action: func(c *cli.Context) error {
			o := policy.Options{
				Dirs: c.StringSlice(policyFlag.Name), DataFiles: c.StringSlice(dataFlag.Name),
				AllowNet: c.Bool(allowNetFlag.Name), Timeout: c.Duration(policyTimeoutFlag.Name),
			}
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
