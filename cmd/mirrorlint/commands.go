package main

import "github.com/urfave/cli/v2"

// commands lists every subcommand; each lives in its own file.
func commands() []*cli.Command {
	return []*cli.Command{
		lintCommand(),
		renderCommand(),
		rulesCommand(),
		diffCommand(),
		resolveCommand(),
		migrateCommand(),
		fnCommand(),
		clustersCommand(),
		verifyCommand(),
	}
}
