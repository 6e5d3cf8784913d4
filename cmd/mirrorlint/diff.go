package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/impact"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/report"
	"github.com/mirrorlint/mirrorlint/internal/shard"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "show how a change alters the nodes' registry files, and whether it drains the nodes",
		ArgsUsage: "OLD NEW | --base REV [PATH...]",
		Description: `Renders both trees the way MCO would and prints the unified diff of each node file
that changes (/etc/containers/registries.conf, /etc/containers/policy.json, the
search-registries drop-in, /etc/containers/registries.d/sigstore-registries.yaml and
/etc/crio/policies/<namespace>.json), then the verdict: does the Machine Config Daemon
only reload CRI-O, or cordon and drain the nodes (and reboot them, for the drop-in)? A
change to policy.json (blocked or allowed registries, signature policies) or to the
signature files only reloads CRI-O. Every change is listed with its consequence.

With --base REV the old tree is the same PATHs (default .) at git revision REV of the
repository the working directory is in, read with git ls-tree/cat-file: the working
tree, index and HEAD are left alone. A path that does not exist on one side is an
empty tree (added or deleted by the change).

Each cluster of the tree is compared on its own and gets its own verdict. A cluster
whose input does not load on either side (a kustomization that does not build, a
remote resource, a helmCharts entry, a file that does not parse) is not compared and
says so, where the problem is; the other clusters are still compared. Clusters with
the same result are printed once, with their names.

--format json prints one object:
  {"drain": bool, "reboot": bool, "action": "none|reload|drain|reboot|refused|unreadable",
   "reasons": [{"cluster", "file", "scope", "message", "drain"}],
   "files": {"/etc/containers/registries.conf": {"changed", "old", "new",
             "oldSource", "newSource", "diff"}, "/etc/containers/policy.json": {...}, ...},
   "refused": [{"side": "old|new", "cluster", "reason", "position": {"file", "line", ...}, "rev"}],
   "unreadable": ["CLUSTER", ...],
   "clusters": [{"name", "action", "drain", "reboot", "reasons", "refused",
                 "problems": [{"side", "message", "position", "rev"}]}]}
The top-level fields answer for every cluster compared (drain: any cluster drains);
with several clusters, files are keyed "CLUSTER:PATH". Positions in the old tree of a
--base comparison are paths from the repository's top level at "rev".

--format sarif, github or junit prints findings instead, for CI: a drain-on-change
warning per change that drains the nodes, on the value in the new tree that carries
it (a removed value: on what removed it, naming where it was as path:line (at REV)),
a render-refused error per side MCO would refuse, and an unreadable-manifest error
per input that keeps a cluster from being compared. The exit codes are the same.

Exit codes: 0 compared (drain or not); 1 MCO would refuse either side of a cluster
(it keeps its current files), or --fail-on-drain and a cluster's nodes would drain;
2 usage error, or a cluster not compared because its input does not load.

Examples:
  mirrorlint diff old/manifests new/manifests
  mirrorlint diff --base origin/main --fail-on-drain clusters/prod
  mirrorlint diff --base origin/main --format github clusters/prod   # PR annotations
  mirrorlint diff --base origin/main --shard 2/4 .                    # one job of a CI matrix`,
		Flags: append(treeFlags(),
			&cli.StringFlag{Name: "base", Usage: "compare PATHs with the same paths at git revision `REV`"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: text, json, sarif, github or junit"},
			&cli.BoolFlag{Name: "fail-on-drain", Usage: "exit 1 when the change makes the nodes drain"},
			shardFlag(),
		),
		Action: runDiff,
	}
}

// diffFormats are the output formats diff accepts: its own text and JSON,
// and the CI formats of package report, fed with findings.
var diffFormats = []string{"text", "json", "sarif", "github", "junit"}

func runDiff(c *cli.Context) error {
	format := c.String("format")
	if !slices.Contains(diffFormats, format) {
		return fail(exitUsage, "diff --format %q: want one of %s", format, strings.Join(diffFormats, ", "))
	}
	top := gitTopLevel()
	opts := projectOptions(c)
	opts.Shard = shard.Shard{} // applied to the pairs: old-side names are not the new side's
	oldOpts, newOpts := opts, opts
	var iopts impact.Options
	oldLabel := "OLD"
	if rev := c.String("base"); rev != "" {
		if opts.Stream != nil {
			return fail(exitUsage, "%v", errBaseStream)
		}
		snap, err := gitrev.Checkout(rev, opts.Paths)
		if err != nil {
			return fail(exitUsage, "%v", err)
		}
		opts.Access.Allow(snap.Dir) // the snapshot is ours
		defer snap.Close()
		oldOpts.Paths, oldLabel = snap.Paths, rev
		for _, m := range snap.Missing {
			// A path on neither side is a typo, not an empty tree: a
			// check that compares nothing must not pass.
			if _, err := os.Lstat(m); err != nil {
				return fail(exitUsage, "%s exists neither in the working tree nor at %s", m, rev)
			}
			fmt.Fprintf(c.App.ErrWriter, "mirrorlint: %s did not exist at %s: compared as an empty tree\n", m, rev)
		}
		if len(newOpts.Paths) == 0 {
			newOpts.Paths = []string{"."}
		}
		// The new side is the working tree as git sees it; the old one
		// holds only what was committed, and its clusters are those the
		// config declared then.
		newOpts.Files = gitFiles(c, top, false, nil)
		cfg, err := project.LoadConfig(opts)
		if err != nil {
			return err
		}
		warnRefusedConfig(c, cfg)
		newOpts.Config = cfg
		if oldOpts.Config, err = baseConfig(snap, cfg); err != nil {
			return err
		}
		iopts = impact.Options{OldRoots: snap.Roots, NewRoots: newOpts.Paths,
			Old: impact.Old{Rev: rev, Name: snap.Name, NewFile: snap.WorkTree, Dir: snap.Dir}}
	} else {
		if c.NArg() != 2 {
			return fail(exitUsage, "diff takes OLD and NEW, or --base REV [PATH...] (see mirrorlint diff --help)")
		}
		oldOpts.Paths, newOpts.Paths = opts.Paths[:1], opts.Paths[1:]
		_, oldErr := os.Lstat(opts.Paths[0])
		_, newErr := os.Lstat(opts.Paths[1])
		if oldErr != nil && newErr != nil {
			return fail(exitUsage, "neither %s nor %s exists", opts.Paths[0], opts.Paths[1])
		}
		// Both trees are read with the one config file, found once.
		cfg, err := project.LoadConfig(opts)
		if err != nil {
			return err
		}
		warnRefusedConfig(c, cfg)
		oldOpts.Config, newOpts.Config = cfg, cfg
		iopts = impact.Options{OldRoots: oldOpts.Paths, NewRoots: newOpts.Paths, Old: impact.Dirs(opts.Paths[0], opts.Paths[1])}
	}
	if s := shardOf(c); !s.Whole() {
		iopts.Keep = s.Has
	}

	oldP, err := openDiffSide(c, oldOpts, oldLabel)
	if err != nil {
		return err
	}
	defer oldP.cleanup()
	newP, err := openDiffSide(c, newOpts, "NEW")
	if err != nil {
		return err
	}
	defer newP.cleanup()

	if len(oldP.Set.Files)+len(newP.Set.Files) == 0 {
		fmt.Fprintf(c.App.ErrWriter, "mirrorlint: warning: no YAML or JSON files found on either side\n")
	}
	res := impact.Compare(oldP.Project, newP.Project, iopts)
	if format == "text" || format == "json" {
		err = writeDiff(c.App.Writer, format, res)
	} else {
		err = writeDiffReport(c.App.Writer, format, res.Findings(), report.Options{Base: top})
	}
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if format != "text" {
		// The text output shows these in each cluster's section. Like
		// every other line on stderr, a failed write does not change the
		// exit code.
		_ = res.WriteProblems(c.App.ErrWriter)
	}
	switch {
	case len(res.Refused) > 0:
		return fail(exitFindings, "")
	case res.Drain && c.Bool("fail-on-drain"):
		return fail(exitFindings, "this change drains the nodes (--fail-on-drain)")
	case len(res.Unreadable) == len(res.Clusters):
		return fail(exitUsage, "cannot compare: an input does not load (see above)")
	case len(res.Unreadable) > 0:
		return fail(exitUsage, "%d of %d clusters not compared, an input of theirs does not load: %s; the others are compared",
			len(res.Unreadable), len(res.Clusters), strings.Join(res.Unreadable, ", "))
	}
	return nil
}

type diffSide struct {
	*project.Project
	cleanup func()
}

// openDiffSide opens one tree. Input that does not load is no reason to
// stop: the clusters it belongs to are not compared (Compare says so on
// each), the others are. Warnings (input skipped on purpose) are printed.
func openDiffSide(c *cli.Context, opts project.Options, label string) (*diffSide, error) {
	p, missing, cleanup, err := impact.OpenSide(opts)
	if err != nil {
		return nil, err
	}
	for _, m := range missing {
		fmt.Fprintf(c.App.ErrWriter, "mirrorlint: %s does not exist: compared as an empty tree\n", m)
	}
	for _, pr := range p.Problems() {
		if pr.Warning && label == "NEW" {
			fmt.Fprintf(c.App.ErrWriter, "%s: warning: %s\n", pr.Pos, pr.Message)
		}
	}
	return &diffSide{Project: p, cleanup: cleanup}, nil
}

// writeDiffReport prints the comparison as findings in one of package
// report's formats: drain-on-change warnings and render-refused errors,
// documented by their rules.
func writeDiffReport(w io.Writer, format string, fs []check.Finding, o report.Options) error {
	rw, err := report.New(format)
	if err != nil {
		return err
	}
	if fs == nil {
		fs = []check.Finding{}
	}
	return report.Configure(rw, o).Write(w, &report.Report{Findings: fs, Rules: impact.DiffRules()})
}

func writeDiff(w io.Writer, format string, res *impact.Result) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return res.WriteText(w)
}
