package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/report"
)

func lintCommand() *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "report what the API server, MCO or the nodes would refuse or do surprisingly",
		ArgsUsage: "[PATH...]",
		Description: `Lints the mirror objects (ImageContentSourcePolicy, ImageDigestMirrorSet,
ImageTagMirrorSet, Image/cluster, MachineConfig) and the signature policies
(ClusterImagePolicy, ImagePolicy) under PATH (default .; "-" reads a stream such as
kustomize build output from stdin), each cluster of the tree on its own (see
` + "`mirrorlint clusters`" + `). Every finding points at the offending value's
file:line:column. With --base REV, a change that makes the nodes drain or reboot is
a drain-on-change warning on the value that causes it.

Findings can be silenced, always with a reason: an annotation on the object
  mirrorlint.io/ignore: "icsp-deprecated: migrating in Q3"
a comment on the offending line (or the line above it)
  # mirrorlint:ignore icsp-deprecated migrating in Q3
or an ignore entry in .mirrorlint.yaml. See ` + "`mirrorlint rules`" + ` for every rule.

Exit codes: 0 nothing at or above --fail-on; 1 findings at or above --fail-on;
2 usage error or internal error.

Examples:
  mirrorlint lint clusters/prod
  mirrorlint lint --format json --fail-on warning .
  mirrorlint lint --base origin/main --format github --format sarif=results.sarif .
  mirrorlint lint --shard 2/4 .                    # one job of a CI matrix
  kustomize build overlays/prod | mirrorlint lint -`,
		Flags: append(append(treeFlags(),
			&cli.StringSliceFlag{Name: "format", Aliases: []string{"f"}, Usage: "output `FORMAT[=FILE]`, repeatable: " + strings.Join(report.Formats(), ", ") + " (default text on stdout)"},
			&cli.StringFlag{Name: "fail-on", Usage: "exit 1 when a finding is at or above `SEVERITY`: error, warning, info (default error, or failOn in the config)"},
			&cli.StringFlag{Name: "render", Usage: "also write the rendered registries.conf to `FILE` (an artifact for reviewers); with several clusters FILE is a directory and each cluster gets FILE/<cluster>/registries.conf (the unnamed one FILE/registries.conf)"},
			contextFlag(), summaryFlag(), shardFlag(), noCacheFlag(),
			&cli.StringFlag{Name: "base", Usage: "also compare with the same paths at git revision `REV` and warn (drain-on-change) when the change makes the nodes drain or reboot"},
		), policyFlags()...),
		Action: runLint,
	}
}

func runLint(c *cli.Context) error {
	// Flags are checked before anything is read: a usage error should not
	// come after a page of loading messages.
	outputs, err := parseFormats(c.StringSlice("format"))
	if err != nil {
		return err
	}
	if c.IsSet("fail-on") {
		if _, err := failOn(c.String("fail-on"), nil); err != nil {
			return err
		}
	}
	top := gitTopLevel()
	req, blobs, err := lintRequest(c, top)
	if err != nil {
		return err
	}
	defer openCaches(c, &req, top, blobs)()
	refused := distrustFoundConfig(c, req.Config, req.Options.Access)
	threshold, err := failOn(c.String("fail-on"), req.Config)
	if err != nil {
		return err
	}
	popts, err := policyOptions(c, req.Config)
	if err != nil {
		return err
	}
	checks, err := loadChecks(popts)
	if err != nil {
		return err
	}
	if rev := c.String("base"); rev != "" {
		if req.Stream != nil {
			return &project.UsageError{Err: fmt.Errorf("--base %s: %w", rev, errBaseStream)}
		}
		base, err := pipeline.CheckoutBase(rev, basePaths(req), req.Root, req.Config)
		if err != nil {
			return err
		}
		defer base.Close()
		refused = append(refused, base.Refusals(req.Config)...)
		req.Options.Access.Allow(base.Dir) // the copy is ours
		req.Base = base
	}
	res, err := pipeline.Run(c.Context, checks, req)
	if err != nil {
		return err // the caller's mistake or an internal error: exitCode prints it, exit 2
	}
	warnRead(c.App.ErrWriter, res.Read(), req.Paths, req.Stream != nil)
	for _, n := range res.Notices {
		fmt.Fprintf(c.App.ErrWriter, "mirrorlint: warning: %s\n", n)
	}
	rep := &report.Report{Rules: res.Rules.All(), Rendered: map[string][]byte{}, Refused: map[string]string{}, Stopped: map[string]string{}, Unreadable: map[string]string{}}
	for _, o := range res.Outcomes() {
		switch {
		case o.Unreadable != nil:
			rep.Unreadable[o.Name] = o.Unreadable.String()
		case o.Stopped != nil:
			rep.Stopped[o.Name] = where(o.Stopped.Pos) + ": " + o.Stopped.Reason
		case o.Output != nil:
			rep.Rendered[o.Name] = o.Output.RegistriesConf
		case o.Refusal != nil:
			rep.Refused[o.Name] = o.Refusal.Error()
		}
	}
	// Files are named the way people read them: relative to the working
	// directory (report.DisplayPaths); SARIF, annotations and the job
	// summary relative to the repository, which GitHub resolves them
	// against.
	rep.Findings = report.DisplayPaths(append(res.Findings, refused...), top)
	repOpts := report.Options{Base: top, Files: res.Files}

	if path := c.String("render"); path != "" {
		notes, err := report.WriteRendered(path, rep)
		for _, n := range notes {
			fmt.Fprintf(c.App.ErrWriter, "mirrorlint: --render: %s\n", n)
		}
		if err != nil {
			return fail(exitUsage, "--render: %v", err)
		}
	}
	for _, o := range outputs {
		o.w = report.Configure(o.w, repOpts)
		if err := o.write(c.App.Writer, rep); err != nil {
			return fail(exitUsage, "%v", err)
		}
	}
	writeSummary(c, rep, repOpts)
	if check.Fails(rep.Findings, threshold) {
		return fail(exitFindings, "")
	}
	return nil
}

// output is one --format FORMAT[=FILE].
type output struct {
	format string
	file   string
	w      report.Writer
}

func parseFormats(specs []string) ([]output, error) {
	if len(specs) == 0 {
		specs = []string{"text"}
	}
	var out []output
	stdout := 0
	for _, s := range specs {
		format, file, _ := strings.Cut(s, "=")
		w, err := report.New(format)
		if err != nil {
			return nil, &project.UsageError{Err: err}
		}
		if file == "" || file == "-" {
			stdout++
			file = ""
		}
		out = append(out, output{format: format, file: file, w: w})
	}
	if stdout > 1 {
		return nil, &project.UsageError{Err: fmt.Errorf("only one --format may write to stdout; give the others a file: --format sarif=results.sarif")}
	}
	return out, nil
}

func (o output) write(stdout io.Writer, rep *report.Report) error {
	if o.file == "" {
		r := *rep
		r.Color = o.format == "text" && isTerminal(stdout)
		return o.w.Write(stdout, &r)
	}
	f, err := os.Create(o.file)
	if err != nil {
		return err
	}
	if err := o.w.Write(f, rep); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
