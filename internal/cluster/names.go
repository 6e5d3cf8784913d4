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
