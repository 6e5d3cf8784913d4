package pipeline

import (
	"fmt"
	"os"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/trace"
)

// scope is what a context directory changes: which tree is loaded and
// which findings are kept.
type scope struct {
	dir string // the context directory; "" for none
	// only holds the real absolute paths of the Paths whose findings are
	// kept; nil keeps everything.
	only []string
}

func newScope(req Request) (*scope, error) {
	if req.Context == "" {
		return &scope{}, nil
	}
	if st, err := os.Stat(req.Context); err != nil || !st.IsDir() {
		return nil, usage("--context %s: not a directory", req.Context)
	}
	s := &scope{dir: req.Context}
	if req.Stream != nil {
		// A stream: the context only resolves origin annotations.
		return s, nil
	}
	absDir := manifest.RealPath(req.Context)
	for _, a := range req.Paths {
		p := manifest.RealPath(a)
		if !inside(absDir, p) {
			return nil, usage("%s is outside the context directory %s (see --context)", a, req.Context)
		}
		s.only = append(s.only, p)
	}
	return s, nil
}

func usage(format string, args ...any) error {
	return &project.UsageError{Err: fmt.Errorf(format, args...)}
}

// loadPaths is what is read: the context tree in place of the paths.
func (s *scope) loadPaths(paths []string) []string {
	if s.only != nil {
		return []string{s.dir}
	}
	return paths
}

func (s *scope) originRoots() []string {
	if s.dir != "" {
		return []string{s.dir, "."}
	}
	return []string{"."}
}

// filter drops findings outside the paths. A cross-object finding is kept
// when any of its places is in them: the file being committed took part
// in it. Unless it is the other side of a finding in them: a rule that
// reports each of two places with the other related (the two copies of a
// duplicate object) would otherwise say the same thing twice, once about
// a file that was not given.
func (s *scope) filter(fs []check.Finding) []check.Finding {
	if s.only == nil {
		return fs
	}
	type place struct {
		rule, file string
		line, col  int
	}
	at := func(rule string, p manifest.Position) place { return place{rule, p.File, p.Line, p.Column} }
	// given holds the findings in the paths, each with its related places.
	given := map[place]map[place]bool{}
	for _, f := range fs {
		if f.File == "" || s.covers(f.File) {
			rel := map[place]bool{}
			for _, r := range f.Related {
				rel[at(f.Rule, r.Position)] = true
			}
			given[at(f.Rule, f.Position)] = rel
		}
	}
	otherSide := func(f check.Finding) bool {
		for _, r := range f.Related {
			if given[at(f.Rule, r.Position)][at(f.Rule, f.Position)] {
				return true
			}
		}
		return false
	}
	var out []check.Finding
	for _, f := range fs {
		keep := f.File == "" || s.covers(f.File)
		if !keep {
			for _, r := range f.Related {
				keep = keep || s.covers(r.File)
			}
			keep = keep && !otherSide(f)
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

func (s *scope) covers(file string) bool {
	if file == "" || manifest.IsStream(file) {
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

// mayHold reports whether a given path may hold an object of kinds (what
// its bytes cannot rule out), or is not a file that can be read. Reads are
// confined as the run's (access), but not charged to its budget: the
// loader reads the file again, and charges it then.
func (s *scope) mayHold(kinds []string, access *safefs.Root) bool {
	for _, p := range s.only {
		if access != nil {
			real, err := access.Resolve(p)
			if err != nil {
				return true
			}
			p = real
		}
		data, err := safefs.ReadRegular(p)
		if err != nil || manifest.MayHoldKinds(data, kinds) {
			return true
		}
	}
	return false
}

// reportedFiles lists the files that were checked and are reported on
// (JUnit writes one suite per file): those holding an object of a kind
// mirrorlint models, or a loading problem. A file without such an object
// (.pre-commit-config.yaml, a Deployment) was read but nothing in it was
// checked, so it is not listed as having passed.
func (s *scope) reportedFiles(p *project.Project) []string {
	holds := map[string]bool{}
	for _, o := range projectObjects(p) {
		if o.Kind.APIVersion() != "" {
			holds[o.File] = true
		}
	}
	for _, pr := range p.Problems() {
		holds[pr.Pos.File] = true
	}
	var out []string
	for _, f := range p.Set.Files {
		if !manifest.IsStream(f) && holds[f] && (s.only == nil || s.covers(f)) {
			out = append(out, f)
		}
	}
	return out
}

// relocator moves a cluster's findings to where their values are written:
// the kustomize patch that set a value, or the origin file of an object
// read from a stream. The engine calls it before matching suppressions.
func relocator(p *project.Project, roots []string, keep manifest.Unmodelled, access *safefs.Root) func(*cluster.Cluster, []check.Finding) []check.Finding {
	// Origin files are read keeping what the stream kept, so that a
	// finding on a workload's image finds the workload there too; only
	// where the run may read (nil: under the roots).
	remap := &trace.Remapper{Roots: roots, Discover: true, Load: manifest.Options{Unmodelled: keep, Access: access}}
	objs := projectObjects(p)
	return func(cl *cluster.Cluster, fs []check.Finding) []check.Finding {
		p.Relocate(cl, fs)
		return remapStream(remap, objs, fs)
	}
}

// remapStream returns fs with every position that lies on one of objs (the
// objects read from the stream) moved to the object's origin file, when
// the object names one. Findings on objects without an origin, and
// positions that are not on a stream object, are kept as they are.
func remapStream(r *trace.Remapper, objs []*manifest.Object, fs []check.Finding) []check.Finding {
	if !trace.AnyOrigin(objs) {
		return fs
	}
	out := make([]check.Finding, len(fs))
	for i, f := range fs {
		var elsewhere bool
		f.Position, elsewhere = r.Place(objs, f.Position, f.Object.Kind, f.Object.Name, f.Path)
		if elsewhere {
			f.Message += fmt.Sprintf(" (the value at %s is set by a kustomize patch or transformer, not in this file; shown at the object it modifies)", f.Path)
		}
		if len(f.Related) > 0 {
			rel := make([]check.Location, len(f.Related))
			for j, l := range f.Related {
				l.Position, _ = r.Place(objs, l.Position, l.Object.Kind, l.Object.Name, l.Path)
				rel[j] = l
			}
			f.Related = rel
		}
		out[i] = f
	}
	return out
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

func inside(dir, p string) bool {
	_, in := manifest.Within(dir, p)
	return in
}
