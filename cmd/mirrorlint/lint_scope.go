package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/report"
)

// Flags for running inside other tools (pre-commit, GitHub Actions).
func contextFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name: contextName,
		Usage: "load the whole tree under `DIR` (so cross-object rules see every object) but report only findings in the PATH arguments. " +
			"Default: when every PATH is a file (as pre-commit passes them) and the working directory is inside a git repository, its top level; " +
			"\"none\" lints only the files given",
	}
}

func summaryFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  summaryName,
		Usage: "append a Markdown summary (counts, findings with links, rendered registries.conf) to `FILE`; default $GITHUB_STEP_SUMMARY when set",
	}
}

// lintRequest turns the command line into a run: the config file, the
// flags, and the context directory, which defaults to the git top level
// when every path is a file (the way pre-commit calls a hook).
//
// blobs are git's blob ids of the files its index holds unchanged, asked
// with the tree's files when the cache is on (cacheDir): the cache looks
// those files up without reading them.
func lintRequest(c *cli.Context, top string) (req pipeline.Request, blobs map[string]string, _ error) {
	po := projectOptions(c, top)
	cfg, err := project.LoadConfig(po)
	if err != nil {
		return pipeline.Request{}, nil, err
	}
	po.Config = cfg
	po.Root = top
	req = pipeline.Request{Options: po}
	switch dir := c.String(contextName); {
	case dir == "none":
	case dir != "":
		req.Context = dir
	case allFiles(po.Paths) && top != "":
		req.Context = relativeToWorkingDir(top)
	}
	// A commit check (files given, the repository as context) reads what
	// is committed plus the files given; a tree honours .gitignore.
	_, cached := cacheDir(c)
	// With the cache on in a repository the run's key lists every
	// directory the run may read: listed now, while git is asked about
	// the tree, the two wait on the file system at the same time, and the
	// key and the walk take the listing from the memo.
	var listing sync.WaitGroup
	if cached && top != "" {
		for _, d := range po.Access.Dirs() {
			if real, err := filepath.EvalSymlinks(d); err == nil {
				listing.Go(func() { po.Access.Prefetch(real, nil) })
			}
		}
	}
	req.Files, blobs = gitTree(c, top, req.Context != "" && allFiles(po.Paths), po.Paths, cached)
	listing.Wait()
	return req, blobs, nil
}

// gitFiles asks git which files make up the tree when the working
// directory is in a repository: the tracked files, plus the untracked ones
// .gitignore does not exclude, or with commit only the tracked files plus
// given (the files a pre-commit hook is called with), so that an untracked
// scratch file cannot block a commit that does not contain it. Outside a
// repository it returns nil: everything under the paths is read.
func gitFiles(c *cli.Context, top string, commit bool, given []string) *manifest.FileSet {
	set, _ := gitTree(c, top, commit, given, false)
	return set
}

// gitTree is gitFiles and, with blobs, git's blob ids of the files its
// index holds unchanged (gitrev.Blobs), asked of git at once.
func gitTree(c *cli.Context, top string, commit bool, given []string, blobs bool) (*manifest.FileSet, map[string]string) {
	if top == "" {
		return nil, nil
	}
	w, err := gitrev.ReadWorkTree(top, !commit, blobs)
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "mirrorlint: warning: cannot list the repository's files (%v): reading every file under the paths\n", err)
		return nil, nil
	}
	set := manifest.NewFileSet(manifest.RealPath(top), w.Files)
	if commit {
		for _, g := range given {
			set.Add(manifest.RealPath(g))
		}
	}
	return set, w.Blobs
}

// relativeToWorkingDir names dir as the working directory sees it, so that
// files loaded from it are named the way the user would type them.
func relativeToWorkingDir(dir string) string {
	wd, err := os.Getwd()
	if err != nil {
		return dir
	}
	if rel, err := filepath.Rel(manifest.RealPath(wd), manifest.RealPath(dir)); err == nil {
		return rel
	}
	return dir
}

// basePaths are the paths --base reads at the base revision: those the
// run loads (the context tree when there is one, so that both sides hold
// the same clusters).
func basePaths(req pipeline.Request) []string {
	if req.Context != "" {
		return []string{req.Context}
	}
	return req.Paths
}

// writeSummary appends the job summary when asked or under GitHub Actions.
// A summary that cannot be written is a warning: the findings and the exit
// code matter more.
func writeSummary(c *cli.Context, rep *report.Report, o report.Options) {
	path := report.SummaryPath(c.String(summaryName), os.Getenv)
	if path == "" {
		return
	}
	if err := report.AppendSummary(path, rep, o); err != nil {
		fmt.Fprintf(c.App.ErrWriter, "mirrorlint: warning: job summary: %v\n", err)
	}
}

// allFiles reports whether args name only existing regular files: the
// way pre-commit calls a hook.
func allFiles(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}

func gitTopLevel() string {
	top, err := gitrev.TopLevel()
	if err != nil {
		return ""
	}
	return top
}
