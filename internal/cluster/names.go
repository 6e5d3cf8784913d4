package cluster

import (
	"os"
	"path"
	"path/filepath"
	"sync"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// root is one directory argument: its absolute path and how the user wrote
// it, so displayed paths look like the loader's (argument joined with the
// path inside it).
type root struct {
	abs, arg string
}

// namer names what discovery finds: clusters (clusterName) and files, as
// the loader displays them (display).
type namer struct {
	roots []root
	multi bool // several arguments: cluster names carry the argument
	// base is the repository root (absolute; "" for none): cluster names
	// are paths relative to it whenever the cluster lies inside it.
	base string
	// shown holds display's answers: a fleet's every cluster names the
	// files of the base it shares.
	shown sync.Map
}

// display turns an absolute path into the form the loader uses for files
// under a root argument, or a working-directory-relative path otherwise.
func (n *namer) display(abs string) string {
	if v, ok := n.shown.Load(abs); ok {
		return v.(string)
	}
	shown := n.displayed(abs)
	n.shown.Store(abs, shown)
	return shown
}

func (n *namer) displayed(abs string) string {
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
// path relative to the repository root, e.g. "overlays/prod" whatever the
// working directory and the argument ("." for the root itself). Without a
// repository root, relative to the argument: a cluster at the argument
// itself is named after the argument, or the directory's base name when
// the argument is ".".
func (n *namer) clusterName(r root, dir string) string {
	if n.base != "" {
		if rel, in := manifest.Within(n.base, dir); in {
			return filepath.ToSlash(rel)
		}
	}
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

// dirName names directory dir (absolute) as clusterName names a cluster
// rooted there; a directory outside every argument as display shows it.
func (n *namer) dirName(dir string) string {
	for _, r := range n.roots {
		if _, in := manifest.Within(r.abs, dir); in {
			return n.clusterName(r, dir)
		}
	}
	return n.display(dir)
}

// DirName names the directory of file (a file of the run, as the loader
// names it) as a cluster rooted there would be named: relative to the
// repository root ("." for the root itself; the config file's directory
// when there is one), so that it reads the same wherever mirrorlint runs,
// else relative to the argument holding it. Clusters the mirror inputs create are told
// apart by it when their own names are the same.
func (r *Result) DirName(file string) string {
	dir := filepath.Dir(manifest.AbsName(file))
	if r.d == nil || r.d.names == nil {
		return path.Dir(filepath.ToSlash(file))
	}
	if r.d.base != "" {
		if rel, in := manifest.Within(r.d.base, dir); in {
			return filepath.ToSlash(rel)
		}
	}
	return r.d.names.dirName(dir)
}
