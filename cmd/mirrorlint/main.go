// Command mirrorlint checks OpenShift image-mirroring manifests before the
// cluster sees them. This package is wiring only: flags → calls → exit code.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/heapwatch"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/report"
	"github.com/mirrorlint/mirrorlint/internal/suggest"
)

// Exit codes, the same for every command.
const (
	exitOK       = 0 // success, nothing at or above --fail-on
	exitFindings = 1 // findings at or above --fail-on / MCO refuses / drain
	exitUsage    = 2 // usage error, unreadable input, internal error
)

func main() {
	os.Exit(runProcess(os.Args))
}

// runProcess is main without the exit: the command's tests run it when
// they run the test binary as the command.
func runProcess(args []string) int {
	setUpProcess()
	stderr := os.Stderr
	flush := divertLibraryOutput(stderr)
	code := run(args, os.Stdin, os.Stdout, stderr)
	flush()
	return code
}

// setUpProcess is what the process needs before any command runs.
func setUpProcess() {
	// Under ulimit -v the GC must collect before the heap maps past the
	// address space left; the stages' own budgets (safefs.Budget.Memory,
	// --policy-memory) are then lowered to fit it too.
	heapwatch.FitAddressSpace()
	// A run is short and allocates several times what it keeps: the
	// collector runs at a slower pace than Go's default, unless GOGC says.
	heapwatch.PaceCommand()
	removeSnapshotsOnSignal()
}

// removeSnapshotsOnSignal is the one place signals are handled: on SIGINT
// or SIGTERM the --base snapshots still open are removed before the
// process exits with the shell's code for the signal (130, 143); deferred
// cleanups do not run when a signal ends a Go program.
func removeSnapshotsOnSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-ch
		gitrev.RemoveLive()
		code := 130
		if sig == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
}

// run executes the command line and returns the process exit code; tests
// call it directly.
func run(args []string, stdin io.Reader, stdout, rawStderr io.Writer) int {
	// Every note, warning and error goes through one guard: a value from
	// the tree (a directory name) cannot forge a workflow command in a CI
	// log or a terminal escape.
	stderr := report.SafeLog(rawStderr)
	defer stderr.Flush()
	app := newApp(stdin, stdout, stderr)
	if len(args) == 1 && isPipe(stdin) {
		// Function runners (kustomize fn run --exec-path, kpt) call an exec
		// function without arguments and a ResourceList on stdin.
		args = append(args, "fn")
	}
	if err := checkCommand(app, args); err != nil {
		return exitCode(err, stderr)
	}
	err := app.Run(args)
	return exitCode(err, stderr)
}

// checkCommand refuses a missing or unknown command before urfave/cli gets
// to treat it as a help topic and exit 0.
func checkCommand(app *cli.App, args []string) error {
	if len(args) < 2 {
		// Setup names the program in the help text (urfave/cli only does
		// it when Run starts).
		app.Setup()
		_ = cli.ShowAppHelp(cli.NewContext(app, nil, nil))
		return fail(exitUsage, "no command given")
	}
	name := args[1]
	if strings.HasPrefix(name, "-") || name == "help" || name == "h" {
		return nil // global flags (--help, --version) and help
	}
	for _, c := range app.Commands {
		if c.HasName(name) {
			return nil
		}
	}
	msg := fmt.Sprintf("unknown command %q; `mirrorlint --help` lists the commands", name)
	var names []string
	for _, c := range app.Commands {
		names = append(names, c.Names()...)
	}
	if s := suggest.Typo(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return fail(exitUsage, "%s", msg)
}

// usageError turns urfave/cli's parse errors into exit-2 errors that say
// what to do: a near flag name for a typo.
func usageError(c *cli.Context, err error, _ bool) error {
	const undefined = "flag provided but not defined: "
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, undefined); ok && c != nil && c.Command != nil {
		var names []string
		for _, f := range c.Command.Flags {
			names = append(names, f.Names()...)
		}
		if s := suggest.Typo(strings.TrimLeft(rest, "-"), names); s != "" {
			msg += fmt.Sprintf(" (did you mean --%s?)", s)
		}
		msg += fmt.Sprintf("; see `mirrorlint %s --help`", c.Command.Name)
	}
	return &project.UsageError{Err: errors.New(msg)}
}

// checkArgs refuses, before anything is read, what a command line cannot
// mean: a flag after the paths, standard input mixed with paths, a
// release image that is no image reference at all.
func checkArgs(c *cli.Context) error {
	if err := flagsFirst(c); err != nil {
		return err
	}
	if err := stdinAlone(c); err != nil {
		return err
	}
	if err := checkShardFlag(c); err != nil {
		return err
	}
	return checkReleaseImageFlag(c)
}

// flagsFirst refuses a flag written after the paths: urfave/cli stops
// parsing flags at the first path, so it would be taken for a file name.
func flagsFirst(c *cli.Context) error {
	for _, a := range c.Args().Slice() {
		if len(a) > 1 && strings.HasPrefix(a, "-") {
			return &project.UsageError{Err: fmt.Errorf("%s comes after the paths: flags go before the paths (mirrorlint %s %s ... PATH...)", a, c.Command.Name, a)}
		}
	}
	return nil
}

// exitError carries an exit code and, optionally, a message for stderr.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func fail(code int, format string, args ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, args...)}
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "mirrorlint:", ee.msg)
		}
		return ee.code
	}
	var ue *project.UsageError
	if errors.As(err, &ue) {
		fmt.Fprintln(stderr, "mirrorlint:", ue.Error())
		return exitUsage
	}
	// Flag parsing errors and anything unexpected.
	fmt.Fprintln(stderr, "mirrorlint:", err)
	return exitUsage
}

var flagStringerOnce sync.Once

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	flagStringerOnce.Do(func() { cli.FlagStringer = compactFlagStringer(cli.FlagStringer) })
	app := &cli.App{
		Name:    "mirrorlint",
		Usage:   "check OpenShift image-mirroring manifests before the cluster sees them",
		Version: versionString(version, commit, buildInfo()),
		Description: `mirrorlint reads a GitOps manifests tree (YAML and JSON, multi-document files,
kind: List, kustomize trees, several clusters per repository) and finds what the API
server or the Machine Config Operator would refuse, or do surprisingly, with
ImageContentSourcePolicy, ImageDigestMirrorSet, ImageTagMirrorSet, Image/cluster,
ClusterImagePolicy and ImagePolicy objects. It renders the files MCO writes to every
node (registries.conf, policy.json, the signature files), tells whether a change drains
the nodes, and shows where a node pulls an image from. Everything runs offline.

Exit codes: 0 success; 1 findings at or above --fail-on, MCO would refuse the input
(render), or the change drains nodes (diff --fail-on-drain); 2 usage error,
unreadable input or internal error.`,
		Reader:                 stdin,
		Writer:                 stdout,
		ErrWriter:              stderr,
		UseShortOptionHandling: true,
		EnableBashCompletion:   true,
		ExitErrHandler:         func(*cli.Context, error) {},
		OnUsageError:           usageError,
		Commands:               commands(),
	}
	for _, c := range app.Commands {
		if c.OnUsageError == nil {
			c.OnUsageError = app.OnUsageError
		}
		if c.Before == nil {
			c.Before = checkArgs
		}
	}
	return app
}

// isPipe reports whether r is a pipe or a file rather than a terminal: the
// way a KRM function runner feeds its function.
func isPipe(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice == 0
}
