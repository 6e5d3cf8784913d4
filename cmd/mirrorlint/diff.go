package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/impact"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/report"
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

Each cluster of the tree is compared on its own and gets its own verdict; with --base
clusters are named from the repository's top level whatever PATHs are given, as lint
names them (with OLD NEW, from each tree's top). A cluster
whose input does not load on either side (a kustomization that does not build, a
remote resource, a helmCharts entry, a file that does not parse) is not compared and
says so, where the problem is; the other clusters are still compared. Clusters with
the same result are printed once, with their names.

An object the API server would refuse (a wrong apiVersion, a value its schema
rejects) never reaches MCO, so the node files cannot show it: for each file that
differs between the two sides, what lint reports of the API server's refusals is a
warning in every format ("rejected" in JSON), with lint's message and file:line,
and the text says that the change cannot apply as it is.

A hosted cluster whose NodePool config HyperShift refuses (an ImageTagMirrorSet in
it) on either side is not compared: the NodePool stops and its nodes get none of
that config, so no node file is shown and no drain verdict given; the error sits at
the refused document ("stopped" in JSON).

--format json prints one object:
  {"drain": bool, "reboot": bool, "action": "none|reload|drain|reboot|refused|stopped|unreadable",
   "reasons": [{"cluster", "file", "scope", "message", "drain"}],
   "files": {"/etc/containers/registries.conf": {"changed", "old", "new",
             "oldSource", "newSource", "diff"}, "/etc/containers/policy.json": {...}, ...},
   "refused": [{"side": "old|new", "cluster", "reason", "position": {"file", "line", ...}, "rev"}],
   "stopped": [the same, for a side refused before MCO],
   "unreadable": ["CLUSTER", ...],
   "rejected": [{"cluster", "rule", "message", "position"}],
   "clusters": [{"name", "action", "drain", "reboot", "reasons", "refused", "stopped",
                 "problems": [{"side", "message", "position", "rev"}], "rejected"}]}
The top-level fields answer for every cluster compared (drain: any cluster drains);
with several clusters, files are keyed "CLUSTER:PATH". Positions in the old tree of a
--base comparison are paths from the repository's top level at "rev".

--format sarif, github or junit prints findings instead, for CI: a drain-on-change
warning per change that drains the nodes, where lint --base puts it: on the value in
the new tree that carries it, in the kustomize patch that set it when one did (a
removed value: on what removed it, naming where it was as path:line (at REV)),
a render-refused error per side MCO would refuse or that is not rendered, and an unreadable-manifest error
per input that keeps a cluster from being compared. The exit codes are the same.

Exit codes: 0 compared (drain or not); 1 MCO would refuse either side of a cluster
(it keeps its current files) or either side is not rendered, or --fail-on-drain and a cluster's nodes would drain;
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
	req := pipeline.DiffRequest{Options: projectOptions(c, top), Rev: c.String("base")}
	if req.Rev != "" && req.Stream != nil {
		return fail(exitUsage, "%v", errBaseStream)
	}
	if req.Rev != "" {
		// Cluster names are relative to the repository, as lint's are.
		req.Root = top
	}
	// The config is settled here, as lint's is; Diff reads it as given.
	cfg, err := project.LoadConfig(req.Options)
	if err != nil {
		return err
	}
	req.Config = cfg
	res, err := pipeline.Diff(c.Context, req)
	if err != nil {
		return err
	}
	warnRefusedConfig(c, res.Config)
	for _, n := range res.Notices {
		fmt.Fprintf(c.App.ErrWriter, "mirrorlint: %s\n", n)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(c.App.ErrWriter, "%s: warning: %s\n", w.Pos, w.Message)
	}
	if res.Empty {
		fmt.Fprintf(c.App.ErrWriter, "mirrorlint: warning: no YAML or JSON files found on either side\n")
	}
	if format == "text" || format == "json" {
		err = writeDiff(c.App.Writer, format, res.Result)
	} else {
		err = writeDiffReport(c.App.Writer, format, report.DisplayPaths(res.Findings, top), res.Rules, report.Options{Base: top})
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
	case len(res.Refused)+len(res.Stopped) > 0:
		return fail(exitFindings, "")
	case res.Drain && c.Bool("fail-on-drain"):
		return fail(exitFindings, "this change drains the nodes (--fail-on-drain)")
	case len(res.Unreadable) == len(res.Clusters):
		return fail(exitUsage, "cannot compare: an input does not load (see above)")
	case len(res.Unreadable) > 0:
		return fail(exitUsage, "%d of %d clusters not compared, an input of theirs does not load: %s; the others are compared",
			len(res.Unreadable), len(res.Clusters), unreadableNames(res.Unreadable))
	}
	return nil
}

// writeDiffReport prints the comparison as findings in one of package
// report's formats: drain-on-change warnings and render-refused errors,
// documented by their rules.
func writeDiffReport(w io.Writer, format string, fs []check.Finding, rules []*check.Rule, o report.Options) error {
	rw, err := report.New(format)
	if err != nil {
		return err
	}
	if fs == nil {
		fs = []check.Finding{}
	}
	return report.Configure(rw, o).Write(w, &report.Report{Findings: fs, Rules: rules})
}

func writeDiff(w io.Writer, format string, res *impact.Result) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return res.WriteText(w)
}

// unreadableNames lists the clusters not compared as the text output
// names them.
func unreadableNames(names []string) string {
	shown := make([]string, len(names))
	for i, n := range names {
		shown[i] = impact.DisplayName(n)
	}
	return strings.Join(shown, ", ")
}
