package cluster

import (
	"os"
	"path"
	"path/filepath"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// root is one directory argument: its absolute path and how the user wrote
// it, so displayed paths look like the loader's (argument joined with the
// path inside it).
type root struct {
	abs, arg string
}

type namer struct {
	roots []root
	multi bool // several arguments: cluster names carry the argument
}

// display turns an absolute path into the form the loader uses for files
// under a root argument, or a working-directory-relative path otherwise.
func (n *namer) display(abs string) string {
	for _, r := range n.roots {
		if rel, ok := manifest.Within(r.abs, abs); ok {
			if rel == "." {
				return filepath.ToSlash(filepath.Clean(r.arg))
			}
			return filepath.ToSlash(filepath.Join(r.arg, rel))
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, in := manifest.Within(wd, abs); in {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(abs)
}

// clusterName names the cluster rooted at dir (absolute, inside r): its
// path relative to the argument, e.g. "overlays/prod". A cluster at the
// argument itself is named after the argument, or the directory's base
// name when the argument is ".".
func (n *namer) clusterName(r root, dir string) string {
	rel, _ := manifest.Within(r.abs, dir)
	rel = filepath.ToSlash(rel)
	arg := filepath.ToSlash(filepath.Clean(r.arg))
	if n.multi && arg != "." {
		return path.Join(arg, rel)
	}
	if rel != "." {
		return rel
	}
	if arg != "." {
		return arg
	}
	return filepath.Base(r.abs)
}

// resolver finds the objects a file holds, from the trees already loaded
// or by loading the file on first use (a base outside the argument).
type resolver struct {
	byFile map[string][]*manifest.Object
	probs  map[string][]manifest.Problem
	loaded map[string]bool
	opts   manifest.Options
	names  *namer
	// sets caches plain loads of declared paths and kustomize builds, so a
	// path shared by several clusters is read once.
	sets map[string]*loaded
}

func newResolver(opts manifest.Options, n *namer) *resolver {
	return &resolver{byFile: map[string][]*manifest.Object{}, probs: map[string][]manifest.Problem{}, loaded: map[string]bool{}, opts: opts, names: n, sets: map[string]*loaded{}}
}

// index records what a load found, file by file. A file already indexed
// (two declared paths overlapping) keeps its first objects.
//
// A file holding objects of unmodelled kinds (workloads kept for the rules
// about image pulls, or for policies) is not indexed when the whole tree is
// loaded: only the files kustomize builds read are asked for again (to
// place built objects), and holding every workload of a large tree for
// them would hold the whole tree. objects reads such a file again when
// asked.
func (r *resolver) index(set *manifest.Set) { r.indexSet(set, false) }

func (r *resolver) indexSet(set *manifest.Set, all bool) {
	fresh := map[string]bool{}
	for _, f := range set.Files {
		if abs, err := filepath.Abs(f); err == nil && !r.loaded[abs] {
			r.loaded[abs] = true
			fresh[abs] = true
		}
	}
	if !all {
		for _, o := range set.Objects {
			if abs, err := filepath.Abs(o.File); err == nil && fresh[abs] && o.Unmodelled {
				delete(fresh, abs)
				delete(r.loaded, abs)
			}
		}
	}
	for _, o := range set.Objects {
		if abs, err := filepath.Abs(o.File); err == nil && fresh[abs] {
			r.byFile[abs] = append(r.byFile[abs], o)
		}
	}
	for _, p := range set.Problems {
		if abs, err := filepath.Abs(p.Pos.File); err == nil && fresh[abs] {
			r.probs[abs] = append(r.probs[abs], p)
		}
	}
}

// problems returns the loading problems of one file, loading it if needed.
func (r *resolver) problems(abs string) []manifest.Problem {
	r.objects(abs)
	return r.probs[abs]
}

func (r *resolver) objects(abs string) []*manifest.Object {
	if !r.loaded[abs] {
		if set, err := manifest.Load([]string{r.names.display(abs)}, r.opts); err == nil {
			r.indexSet(set, true)
		}
		r.loaded[abs] = true
	}
	return r.byFile[abs]
}
