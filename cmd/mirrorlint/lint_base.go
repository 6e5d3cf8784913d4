package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/impact"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// addDrainRule registers drain-on-change. Without --base it is registered
// inert (so config severities and `rules` know it); with --base REV the
// same paths are read from git at REV and each cluster is compared with its
// counterpart there. opts are the options newP was opened with: with
// --context (pre-commit passes only the changed files) that is the context
// tree, so the clusters on both sides are the same clusters.
func addDrainRule(c *cli.Context, reg *check.Registry, newP *project.Project, opts project.Options) (func(), error) {
	rev := c.String("base")
	if rev == "" {
		return func() {}, reg.Add(impact.DrainRule(nil))
	}
	if len(opts.Paths) == 0 {
		opts.Paths = []string{"."}
	}
	snap, err := gitrev.Checkout(rev, opts.Paths)
	if err != nil {
		return func() {}, &project.UsageError{Err: fmt.Errorf("--base %s: %w", rev, err)}
	}
	oldOpts := opts
	oldOpts.Paths = snap.Paths
	// The same clusters at REV: names are relative to the snapshot's top
	// as they are to the working tree's.
	oldOpts.Root, oldOpts.Only = snap.Dir, nil
	if opts.Only != nil {
		oldOpts.Select = []string{}
		for _, cl := range newP.Clusters {
			oldOpts.Select = append(oldOpts.Select, cl.Name)
		}
	}
	oldP, _, cleanup, err := impact.OpenSide(oldOpts)
	if err != nil {
		snap.Close()
		return func() {}, err
	}
	done := func() { cleanup(); snap.Close() }
	// A base that does not fully load gives no drain verdict rather than a
	// wrong one; say so instead of staying silent.
	if prs := manifest.Errors(oldP.Problems()); len(prs) > 0 {
		pos := prs[0].Pos
		pos.File = snap.Name(pos.File)
		fmt.Fprintf(c.App.ErrWriter, "mirrorlint: warning: --base %s: %d unreadable input(s) at that revision (first: %s: %s): drain-on-change is not checked\n",
			rev, len(prs), pos, prs[0].Message)
	}
	base := impact.BaseOf(oldP, newP, impact.Options{OldRoots: snap.Paths, NewRoots: opts.Paths, OldName: snap.Name})
	if err := reg.Add(impact.DrainRule(base)); err != nil {
		done()
		return func() {}, err
	}
	return done, nil
}
