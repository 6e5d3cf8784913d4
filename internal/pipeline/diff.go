package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/impact"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/shard"
)

// DiffRequest is one comparison of two trees (mirrorlint diff).
type DiffRequest struct {
	// Options say how both sides are read, as for a lint run: the flags,
	// the config file (Config, which the caller loads: the run's settings
	// are settled before the comparison starts), --cluster and
	// --shard (applied to the pairs, by the new side's names). Without
	// Rev, Paths are the OLD and NEW trees, each naming its clusters
	// relative to itself; with Rev they are the paths compared (none means
	// "."), and Root, the repository's top level, is what both sides name
	// their clusters relative to, as lint does.
	project.Options
	// Rev, when set, is the base revision: the old side is Paths at Rev in
	// the repository the working directory is in, the new side the
	// working tree as git sees it (tracked files and untracked ones
	// .gitignore does not exclude).
	Rev string
}

// DiffResult is a finished comparison.
type DiffResult struct {
	// Result is the comparison (its JSON form is diff --format json).
	*impact.Result
	// Config is the config the new side was read with (the old side of a
	// --base comparison reads the one at the revision).
	Config *config.Config
	// Findings are the comparison as findings, for the CI formats: placed
	// where lint --base places them (on the patch that set a value).
	Findings []check.Finding
	// Rules are the rules the findings name.
	Rules []*check.Rule
	// Notices are what the user should know that is not a finding (a path
	// compared as an empty tree), one sentence each.
	Notices []string
	// Warnings are the new side's inputs skipped on purpose (a Helm chart,
	// a template only the cluster resolves).
	Warnings []manifest.Problem
	// Empty is set when neither side holds a YAML or JSON file.
	Empty bool
}

// Diff opens both sides of req and compares every cluster. Input that does
// not load is no reason to stop: the clusters it belongs to are not
// compared (the result says so on each), the others are.
func Diff(ctx context.Context, req DiffRequest) (*DiffResult, error) {
	cfg := req.Config
	if cfg == nil {
		return nil, errors.New("diff: no config: the caller loads it (project.LoadConfig) before the comparison")
	}
	res := &DiffResult{Config: cfg, Rules: impact.DiffRules()}
	opts := req.Options
	opts.Config = cfg
	// The shard and --cluster select pairs, by the new side's names: the
	// old side does not name a cluster the change adds.
	sel, only := opts.Shard, opts.Cluster
	opts.Shard = shard.Shard{}
	oldOpts, newOpts := opts, opts
	var iopts impact.Options
	ch := &changes{seen: map[string]bool{}}
	if req.Rev != "" {
		if len(newOpts.Paths) == 0 {
			newOpts.Paths = []string{"."}
		}
		base, err := CheckoutBase(req.Rev, opts.Paths, opts.Root, cfg)
		if err != nil {
			return nil, err
		}
		defer base.Close()
		for _, f := range base.Refusals(cfg) {
			res.Notices = append(res.Notices, "warning: "+f.File+": "+f.Message)
		}
		if opts.Access != nil {
			opts.Access.Allow(base.Dir) // the copy is ours
		}
		for _, m := range base.Missing() {
			// A path on neither side is a typo, not an empty tree: a check
			// that compares nothing must not pass.
			if _, err := os.Lstat(m); err != nil {
				return nil, usage("%s exists neither in the working tree nor at %s", m, req.Rev)
			}
			res.Notices = append(res.Notices, fmt.Sprintf("%s did not exist at %s: compared as an empty tree", m, req.Rev))
		}
		// The new side is the working tree as git sees it; the old one
		// holds only what was committed, with the config of then.
		newOpts.Files = res.gitFiles(opts.Root)
		oldOpts.Paths, oldOpts.Config, oldOpts.Root, oldOpts.Files = base.Paths, base.Config, base.Root, nil
		oldOpts.Absent = base.Absent()
		iopts = pairing(base, newOpts.Paths, impact.Old{Rev: base.Rev, Name: base.Name, NewFile: base.NewFile, Dir: base.Dir})
		ch.inOld = base.InBase
	} else {
		if len(opts.Paths) != 2 {
			return nil, usage("diff takes OLD and NEW, or --base REV [PATH...] (see mirrorlint diff --help)")
		}
		_, oldErr := os.Lstat(opts.Paths[0])
		_, newErr := os.Lstat(opts.Paths[1])
		if oldErr != nil && newErr != nil {
			return nil, usage("neither %s nor %s exists", opts.Paths[0], opts.Paths[1])
		}
		oldOpts.Paths, newOpts.Paths = opts.Paths[:1], opts.Paths[1:]
		oldOpts.Root, newOpts.Root = "", ""
		iopts = impact.Options{OldRoots: oldOpts.Paths, NewRoots: newOpts.Paths, Old: impact.Dirs(opts.Paths[0], opts.Paths[1])}
		ch.inOld = underRoot(opts.Paths[1], opts.Paths[0])
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// The new side is opened first: it resolves --cluster to a full name
	// (sno1 is ztp-spoke/sno1), which selects the old side's cluster.
	newP, err := res.openSide(newOpts)
	if err != nil {
		return nil, err
	}
	if only != "" {
		only = newP.Selected
		oldOpts.Cluster, oldOpts.Select = "", []string{only}
	}
	if !sel.Whole() || only != "" {
		iopts.Keep = func(name string) bool { return sel.Has(name) && (only == "" || name == only) }
	}
	oldP, err := res.openSide(oldOpts)
	if err != nil {
		return nil, err
	}
	for _, pr := range newP.Problems() {
		if pr.Warning {
			res.Warnings = append(res.Warnings, pr)
		}
	}
	res.Empty = len(oldP.Set.Files)+len(newP.Set.Files) == 0
	iopts.Relocate = relocator(newP, []string{"."}, newOpts.Unmodelled, newOpts.Access)
	api := apiRules()
	res.Rules = append(res.Rules, api.All()...)
	if iopts.Rejected, err = rejected(newP, api, ch, iopts); err != nil {
		return nil, err
	}
	res.Result = impact.Compare(oldP, newP, iopts)
	res.Findings = res.Result.Findings()
	return res, nil
}

// openSide opens one side; a path that does not exist is an empty tree (a
// directory the change adds or deletes), and a notice says so.
func (res *DiffResult) openSide(opts project.Options) (*project.Project, error) {
	p, missing, cleanup, err := impact.OpenSide(opts)
	if err != nil {
		return nil, err
	}
	// The temporary empty tree OpenSide may make is not needed once the
	// project is loaded: objects keep their bytes.
	cleanup()
	for _, m := range missing {
		res.Notices = append(res.Notices, fmt.Sprintf("%s does not exist: compared as an empty tree", m))
	}
	return p, nil
}

// gitFiles are the files git holds in the repository at top (tracked, and
// untracked-not-ignored), which directory walks of the new side are
// restricted to; nil (every file) outside a repository or when git cannot
// list them, which a notice says.
func (res *DiffResult) gitFiles(top string) *manifest.FileSet {
	if top == "" {
		return nil
	}
	files, err := gitrev.Files(top, true)
	if err != nil {
		res.Notices = append(res.Notices, fmt.Sprintf("warning: cannot list the repository's files (%v): reading every file under the paths", err))
		return nil
	}
	return manifest.NewFileSet(manifest.RealPath(top), files)
}
