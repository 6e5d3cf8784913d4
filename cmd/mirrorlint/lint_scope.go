package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/origin"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/report"
)

// Flags for running inside other tools (pre-commit, GitHub Actions).
var (
	contextFlag = &cli.StringFlag{
		Name: "context",
		Usage: "load the whole tree under `DIR` (so cross-object rules see every object) but report only findings in the PATH arguments. " +
			"Default: when every PATH is a file (as pre-commit passes them) and the working directory is inside a git repository, its top level; " +
			"\"none\" lints only the files given",
	}
	summaryFlag = &cli.StringFlag{
		Name:  "summary",
		Usage: "append a Markdown summary (counts, findings with links, rendered registries.conf) to `FILE`; default $GITHUB_STEP_SUMMARY when set",
	}
)

// lintScope is what --context changes: which tree is loaded and which
// findings are kept. Report paths do not depend on it: people see paths
// relative to the working directory, code scanning relative to the
// repository.
type lintScope struct {
	dir string // the context directory; "" for none
	// only holds the cleaned absolute paths of the PATH arguments whose
	// findings are kept; nil keeps everything.
	only []string
	// load replaces the PATH arguments when the context tree is loaded.
	load []string
	// gitTop caches the git top level ("" outside a repository): the
	// context default and the report base both need it.
	gitTop *string
}

// top returns the git top level of the working directory, asking git once.
func (s *lintScope) top() string {
	if s.gitTop == nil {
		t := gitTopLevel()
		s.gitTop = &t
	}
	return *s.gitTop
}

func newLintScope(c *cli.Context) (*lintScope, error) {
	args := c.Args().Slice()
	dir := c.String(contextFlag.Name)
	base := &lintScope{}
	switch {
	case dir == "none":
		return base, nil
	case dir == "" && allFiles(args):
		dir = base.top()
	}
	if dir == "" {
		return base, nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, &project.UsageError{Err: fmt.Errorf("--context %s: not a directory", dir)}
	}
	s := &lintScope{dir: dir, gitTop: base.gitTop}
	if len(args) == 1 && args[0] == "-" {
		// A stream: the context only resolves origin annotations.
		return s, nil
	}
	absDir := manifest.RealPath(dir)
	for _, a := range args {
		if a == "-" {
			return nil, &project.UsageError{Err: fmt.Errorf("--context: \"-\" cannot be mixed with paths")}
		}
		p := manifest.RealPath(a)
		if !inside(absDir, p) {
			return nil, &project.UsageError{Err: fmt.Errorf("%s is outside the context directory %s (see --context)", a, dir)}
		}
		s.only = append(s.only, p)
	}
	// Load the context as the working directory sees it, so findings name
	// files the way the user would type them.
	load := dir
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(manifest.RealPath(wd), absDir); err == nil {
			load = rel
		}
	}
	s.load = []string{load}
	return s, nil
}

func (s *lintScope) options(o project.Options) project.Options {
	if s.load != nil {
		o.Paths = s.load
	}
	return o
}

// relocator moves a cluster's findings to where their values are written:
// the kustomize patch that set a value, or the origin file of an object read
// from a stream. The engine calls it before matching suppressions.
func (s *lintScope) relocator(p *project.Project) func(*check.Cluster, []check.Finding) []check.Finding {
	roots := []string{"."}
	if s.dir != "" {
		roots = []string{s.dir, "."}
	}
	remap := &origin.Remapper{Roots: roots, Discover: true}
	objs := projectObjects(p)
	return func(cl *check.Cluster, fs []check.Finding) []check.Finding {
		p.Relocate(cl, fs)
		return remap.Remap(objs, fs)
	}
}

// apply drops findings outside the PATH arguments, then names every file
// the way people read it (report.DisplayPaths): files pulled in by the
// context or by a kustomize base otherwise come out absolute or relative to
// wherever they were loaded from. A cross-object finding is kept when any
// of its places is in the PATH arguments: the file being committed took
// part in it. Filtering compares real absolute paths, so it comes first.
func (s *lintScope) apply(p *project.Project, fs []check.Finding) []check.Finding {
	return report.DisplayPaths(s.filter(fs))
}

func (s *lintScope) filter(fs []check.Finding) []check.Finding {
	if s.only == nil {
		return fs
	}
	var out []check.Finding
	for _, f := range fs {
		keep := f.File == "" || s.covers(f.File)
		for _, r := range f.Related {
			keep = keep || s.covers(r.File)
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

func (s *lintScope) covers(file string) bool {
	if file == "" || file == "-" {
		return false
	}
	p := manifest.RealPath(file)
	for _, o := range s.only {
		if inside(o, p) {
			return true
		}
	}
	return false
}

// reportOptions makes SARIF, annotation and job-summary paths relative to
// the repository (the git top level of the working directory), which is
// what GitHub resolves them against, whether or not --context was given
// and wherever below the top level mirrorlint runs. Outside a repository
// they are relative to the working directory.
func (s *lintScope) reportOptions(p *project.Project) report.Options {
	o := report.Options{Base: s.top()}
	for _, f := range p.Set.Files {
		if f != "-" && (s.only == nil || s.covers(f)) {
			o.Files = append(o.Files, f)
		}
	}
	return o
}

// writeSummary appends the job summary when asked or under GitHub Actions.
// A summary that cannot be written is a warning: the findings and the exit
// code matter more.
func (s *lintScope) writeSummary(c *cli.Context, rep *report.Report, o report.Options) {
	path := report.SummaryPath(c.String(summaryFlag.Name), os.Getenv)
	if path == "" {
		return
	}
	if err := report.AppendSummary(path, rep, o); err != nil {
		fmt.Fprintf(c.App.ErrWriter, "mirrorlint: warning: job summary: %v\n", err)
	}
}

// projectObjects lists every loaded object, including those only the
// clusters hold (built in-process from kustomizations).
func projectObjects(p *project.Project) []*manifest.Object {
	seen := map[*manifest.Object]bool{}
	var out []*manifest.Object
	add := func(objs []*manifest.Object) {
		for _, o := range objs {
			if !seen[o] {
				seen[o] = true
				out = append(out, o)
			}
		}
	}
	if p.Set != nil {
		add(p.Set.Objects)
	}
	for _, cl := range p.Clusters {
		add(cl.Objects)
	}
	return out
}

// allFiles reports whether args name only existing regular files: the
// way pre-commit calls a hook.
func allFiles(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		st, err := os.Stat(a)
		if a == "-" || err != nil || !st.Mode().IsRegular() {
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

func inside(dir, p string) bool {
	_, in := manifest.Within(dir, p)
	return in
}
