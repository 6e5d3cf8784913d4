// Package pipeline is the lint pipeline every entry point shares: the command
// line's lint, the KRM function and the public lint package all describe a
// run as a Request and get the same Result. It opens the tree (config,
// manifests, clusters), narrows it to what a commit can affect, runs the
// rules and policies on every cluster, moves findings to the files that
// wrote their values, and compares with a base revision when asked.
// Presentation (paths for display, formats, exit codes) is the caller's.
package pipeline

import (
	"context"
	"fmt"
	"sync"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/impact"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/shard"
	"github.com/mirrorlint/mirrorlint/render"
)

// Request is one run.
type Request struct {
	// Options say what is read and how (project.Options): the paths, or
	// the one stream of manifests (Stream, such as kustomize build
	// output), the loaded config file, the flags that win over it, the
	// cluster selection, the files directory walks may read (the command
	// asks git; the library never does) and the root cluster names are
	// relative to. Run adds what its checks need (which other kinds to
	// keep, the prefilter of the pre-commit path).
	project.Options
	// Context, when set, is the directory loaded instead of Paths, so that
	// cross-object rules see the whole tree, while only findings touching
	// Paths are kept and only the clusters reading them are linted (the
	// pre-commit path). Paths must lie inside it. With a Stream it only
	// anchors origin annotations.
	Context string
	// OriginRoots are where the origin annotations of streamed objects are
	// looked up; nil means the context (if any) and the working directory.
	OriginRoots []string
	// Base, when set, compares every cluster with the same cluster at a base
	// revision (drain-on-change).
	Base *Base
	// Results, when set, keeps each checked cluster's results between runs
	// (a pack of ResultFormat; see cache.go): a cluster whose inputs and
	// checks are unchanged is not checked again. Runs with a base revision
	// do not use it.
	Results manifest.Cache
	// Runs, when set, keeps whole results between runs (see runcache.go):
	// a run whose request, checks, config and every file it may read are
	// unchanged takes its result from it without loading anything. It is
	// used only with an access root (Options.Access) and a loaded config,
	// never with a base revision or a stream; the caller leaves it unset
	// for runs that write files. On such a hit Result.Project and
	// Result.Contexts are nil: read Outcomes and Read.
	Runs manifest.Cache
	// Loaded, when set, is called once every file has been read and every
	// build run (of the base revision too), before the checks: the loader
	// no longer uses Options.Cache, so a caller may write it while the
	// checks run. Not called when the run stops before the checks.
	Loaded func()
}

// Base is the tree the change is compared with: the same paths read at a
// base revision (the caller extracts it; package gitrev does for git).
type Base struct {
	Rev string
	// Paths are Request.Paths (or the context) at the base revision, in the
	// same order; a path that did not exist there is left out.
	Paths []string
	// Roots are Request.Paths (or the context) at the base revision, one
	// per path whether or not it existed there, so that the clusters of the
	// two sides pair argument by argument; nil pairs by name only.
	Roots []string
	// Name maps a file of the base tree to how people should read it (its
	// path from the repository's top level; messages add "(at REV)"); nil
	// keeps the name.
	Name func(string) string
	// NewFile maps a file of the base tree to the same file in the tree
	// being linted, so that a warning about a value the change removed can
	// sit in the new tree; nil when there is no such mapping.
	NewFile func(string) string
	// Dir is where the base tree was extracted (a temporary directory),
	// never to be shown in a message.
	Dir string
	// Config is the config as it was at the base revision (see
	// impact.ConfigAt), so that declared clusters are read from the base
	// tree; nil uses Request.Config.
	Config *config.Config
	// Root is Request.Root at the base revision: the base side's cluster
	// names are relative to it, so that the sides pair by name wherever
	// the paths point; "" names them relative to the arguments.
	Root string

	snap *gitrev.Snapshot // the copy CheckoutBase made, removed by Close
}

// Result is a finished run.
type Result struct {
	Project *project.Project
	// Rules are the rules the run used (with drain-on-change comparing when
	// a base was given).
	Rules *check.Registry
	// Findings are every linted cluster's findings, merged, with the
	// suppressions' own; with a context only those touching Paths.
	Findings []check.Finding
	// Contexts holds each linted cluster's render or refusal, in the order
	// of Project.Clusters.
	Contexts []*check.Context
	// Files are the files that were checked and are reported on: every
	// file read that holds an object of a kind mirrorlint models (or could
	// not be read), with a context only those under Paths.
	Files []string
	// Notices are things the user should know that are not findings (the
	// base revision does not load whole, so drains are not checked).
	Notices []string
	// Reused counts the clusters whose check results came from
	// Request.Results (all of them when the whole run came from
	// Request.Runs).
	Reused int
	// WholeRun says the result came from Request.Runs: nothing was loaded.
	WholeRun bool

	stored *cachedRun // the result Request.Runs held
}

// Read is what the run read, for the notes and the warnings about an
// empty tree.
func (r *Result) Read() ReadSummary {
	if r.stored != nil {
		return r.stored.Read
	}
	return Summarize(r.Project)
}

// Run lints what req describes with checks.
func Run(ctx context.Context, checks *Checks, req Request) (*Result, error) {
	defer safefs.HoldWorkingDir()()
	sc, err := newScope(req)
	if err != nil {
		return nil, err
	}
	var key string
	var listed *listing
	keyed := func() {}
	if fresh(req.Runs) {
		// Nothing an earlier run kept can be found: the key, which then
		// only keeping this run needs, is made while the tree loads (its
		// listing and the walks share one listing of each directory, in
		// whichever order they come to it).
		var wg sync.WaitGroup
		wg.Go(func() { key, listed = runKey(checks, req, sc) })
		keyed = wg.Wait
		defer keyed()
	} else if key, listed = runKey(checks, req, sc); key != "" {
		if r, ok := storedRun(req.Runs, key); ok {
			return &Result{Rules: checks.Rules, Findings: r.Findings, Files: r.Files, Reused: len(r.Outcomes), WholeRun: true, stored: r}, nil
		}
	}
	opts := req.Options
	var rec *runRecorder
	if mayKeep(req) {
		rec = &runRecorder{below: opts.Cache}
		opts.Cache = rec
	}
	opts.Paths = sc.loadPaths(req.Paths)
	opts.Unmodelled = checks.unmodelled(req.Config)
	opts.Narrowed = nil // Run's own: from the checks and the files given
	if sc.only != nil {
		// Given files (pre-commit): only the clusters reading them are
		// read and built, and of the other files only those that may hold
		// what these checks read are parsed; of plain files, not even the
		// objects checked one at a time, unless a given file may hold
		// what findings about them name. (Such an object is read from a
		// document of its own kind: the loader keeps no workload a
		// generator or a policy delivers, so the bytes of the given files
		// tell.)
		needs := checks.needs()
		if req.Base != nil {
			needs = manifest.NeedAll() // drain-on-change compares whole clusters
		}
		opts.Only, opts.Needs = sc.only, &needs
		if narrowed, relates, ok := checks.narrowed(needs); ok && !sc.mayHold(relates, opts.Access) {
			opts.Narrowed = &narrowed
		}
	}
	p, err := project.Open(opts)
	if err != nil {
		return nil, err
	}
	if sc.only != nil {
		// Given files (pre-commit): lint the clusters that read them.
		p.Narrow(sc.only)
	}
	res := &Result{Project: p, Rules: checks.Rules, Files: sc.reportedFiles(p)}
	if req.Base != nil {
		base, notice, err := openBase(req.Base, p, opts)
		if err != nil {
			return nil, err
		}
		if notice != "" {
			res.Notices = append(res.Notices, notice)
		}
		res.Rules = checks.Rules.Replace(impact.DrainRule(base))
	}
	roots := req.OriginRoots
	if roots == nil {
		roots = sc.originRoots()
	}
	store := req.Results
	if req.Base != nil {
		store = nil
	}
	if req.Loaded != nil {
		req.Loaded()
	}
	findings, contexts, reused, err := checks.lint(res.Rules, p, store, relocator(p, roots, opts.Unmodelled, opts.Access), ctx.Err)
	if err != nil {
		return nil, err
	}
	keyed()
	res.Findings, res.Contexts, res.Reused = sc.filter(findings), contexts, reused
	res.Findings = append(res.Findings, sc.unbuilt(p, findings, res.Findings)...)
	// Kept whole when every build can be checked by the listing, nothing
	// stopped at a limit (that depends on the machine, not the inputs),
	// and nothing the key lists changed while the run read it.
	if key != "" && rec.keepable(listingRoots(req, sc)) && !atLimit(findings) && !atLimit(res.Findings) {
		keepRun(req.Runs, key, res, listed.holds)
	}
	return res, nil
}

// openBase opens the base tree with the options the new side was opened
// with (so the clusters on both sides are the same clusters) and returns
// the function that pairs each new cluster with its base. A base that does
// not load whole gives no drain verdict rather than a wrong one; the notice
// says so.
func openBase(b *Base, newP *project.Project, opts project.Options) (*impact.Baseline, string, error) {
	newRoots := opts.Paths
	if len(newRoots) == 0 {
		newRoots = []string{"."}
	}
	oldOpts := opts
	oldOpts.Paths, oldOpts.Stream = b.Paths, nil       // the base is a tree, never a stream
	oldOpts.Cluster, oldOpts.Shard = "", shard.Shard{} // paired below, by the new side's names
	oldOpts.Files = nil                                // the base tree holds what was committed, nothing else
	// A blob the local clone lacks is an unreadable input of the clusters
	// reading it, not an empty file: read as empty it would make every
	// mirror of that file look added, and the nodes drain.
	oldOpts.Absent = b.Absent()
	// The base side's names are relative to its root, else to its
	// arguments, as the pairing expects (impact.BaseOf); when the new side
	// lints a commit's files only the clusters of the same names are read
	// there (all of them when none matches).
	oldOpts.Root, oldOpts.Only, oldOpts.Select = b.Root, nil, nil
	if opts.Only != nil {
		oldOpts.Select = []string{}
		for _, cl := range newP.Clusters {
			oldOpts.Select = append(oldOpts.Select, cl.Name)
		}
	}
	if b.Config != nil {
		oldOpts.Config = b.Config
	}
	oldP, _, cleanup, err := impact.OpenSide(oldOpts)
	if err != nil {
		return nil, "", err
	}
	// OpenSide's temporary empty tree, if it made one, is no longer needed
	// once the project is loaded: objects keep their bytes.
	defer cleanup()
	old := impact.Old{Rev: b.Rev, Name: b.Name, NewFile: b.NewFile, Dir: b.Dir}
	notice := ""
	if prs := manifest.Errors(oldP.Problems()); len(prs) > 0 {
		// Each cluster is compared only when it loads whole on both
		// sides; the others are not checked, and the notice says so.
		pos := prs[0].Pos
		if b.Name != nil && pos.File != "" {
			pos.File = b.Name(pos.File)
		}
		at := pos.File
		if pos.Line > 0 {
			at = fmt.Sprintf("%s:%d", pos.File, pos.Line)
		}
		notice = fmt.Sprintf("--base %s: %d unreadable input(s) at that revision (first: %s (at %s): %s): drain-on-change is not checked for the clusters that read them",
			b.Rev, len(prs), at, b.Rev, old.Message(prs[0].Message))
	}
	return impact.BaseOf(oldP, newP, pairing(b, newRoots, old)), notice, nil
}

// Outcome is what a linted cluster's nodes get: the render, MCO's refusal,
// nothing when a component before MCO stops (cluster.Cluster.Stopped), or
// nothing trustworthy when its input does not all load (the render of
// what did load would read as "no mirrors" for what did not).
type Outcome struct {
	Name    string
	Output  *render.Output  // nil unless rendered from the whole input
	Refusal *render.Refusal // nil unless MCO refuses the whole input
	Stopped *cluster.Stop   // nil unless the nodes get nothing from the input
	// Unreadable is the first input that did not load, nil when all did.
	Unreadable *manifest.Problem
}

// Outcomes lists each linted cluster's outcome, in the clusters' order.
func (r *Result) Outcomes() []Outcome {
	if r.stored != nil {
		return r.stored.outcomes
	}
	out := make([]Outcome, 0, len(r.Project.Clusters))
	for i, cl := range r.Project.Clusters {
		o := Outcome{Name: cl.Name}
		switch ctx := r.Contexts[i]; {
		case len(manifest.Errors(cl.Problems)) > 0:
			o.Unreadable = &manifest.Errors(cl.Problems)[0]
		case cl.Stopped != nil:
			o.Stopped = cl.Stopped
		case ctx.Rendered != nil:
			o.Output = ctx.Rendered
		default:
			o.Refusal = ctx.Refusal
		}
		out = append(out, o)
	}
	return out
}
