package main

import (
	"errors"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/krm"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
)

func fnCommand() *cli.Command {
	return &cli.Command{
		Name:  "fn",
		Usage: "KRM function: lint a ResourceList on stdin, pass it through to stdout",
		Description: `Runs as a KRM function (kustomize transformers:, kustomize fn run, kpt fn eval).
Every item is written back unchanged; the findings go into the ResourceList's
results and, because kustomize discards results, onto stderr. Files and lines are
taken from the internal.config.kubernetes.io/path, config.kubernetes.io/path or
config.kubernetes.io/origin annotations, re-reading the file when it is present.

Options come from the functionConfig, either

  apiVersion: mirrorlint.io/v1alpha1
  kind: MirrorLint
  metadata: {name: mirrorlint}
  spec:                  # the same keys as .mirrorlint.yaml, plus:
    emitRendered: true   # add the rendered registries.conf as a ConfigMap item
                         # (transformers:, generators:, fn run; a validator
                         # may add nothing)

or a ConfigMap with data keys releaseImage, openshiftVersion, failOn, emitRendered
(what ` + "`kustomize fn run ... -- key=value`" + ` builds).

With kustomize, wire it as a transformer with an exec function config:
  config.kubernetes.io/function: |
    exec: {path: /usr/local/bin/mirrorlint, args: [fn]}
and build with --enable-alpha-plugins --enable-exec: without --enable-exec
kustomize skips the function silently and exits 0. The image is the same
function: container: {image: ghcr.io/mirrorlint/mirrorlint:vX.Y.Z}. Under
validators: kustomize v5.8.2 fails every clean build ("validator shouldn't
modify the resource map") whatever a function returns: use transformers:.

Exit codes: 0 nothing at or above failOn; 1 findings at or above failOn (the
runner fails the build); 2 bad input or functionConfig.`,
		Action: func(c *cli.Context) error {
			// Origin files are read only inside the repository: the git
			// top level, else the kustomize tree around the directory
			// kustomize runs this in.
			top := gitTopLevel()
			if top == "" {
				wd, _ := os.Getwd()
				top = krm.TreeRoot(wd)
			}
			p := &krm.Processor{Checks: pipeline.ChecksFromConfig, Stderr: c.App.ErrWriter, Access: accessRootAt(c, top)}
			err := p.Run(c.App.Reader, c.App.Writer)
			var fe *krm.FindingsError
			switch {
			case err == nil:
				return nil
			case errors.As(err, &fe):
				// The processor already printed the findings and their tally.
				return fail(exitFindings, "")
			}
			return fail(exitUsage, "fn: %v", err)
		},
	}
}
