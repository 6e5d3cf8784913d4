package safefs

import (
	"io/fs"
	"os"
)

// dirListing is what os.ReadDir gave for one directory.
type dirListing struct {
	entries []fs.DirEntry
	err     error
}

// ReadRealDir lists the directory real, an absolute path free of links,
// once per run: the whole-run key's listing, cluster discovery and the
// loader each walk the tree, and a tree of one file per directory pays
// three system calls per directory for every walk. Later calls get what
// the first one got (os.ReadDir's entries, sorted by name, with what it
// read before an error), so every walk of a run sees the same tree, the
// one the run's key describes. Each subdirectory and regular file among
// the entries (not a link) is its own real path, and the resolver learns
// it without asking the system again. Without a root it is os.ReadDir.
func (r *Root) ReadRealDir(real string) ([]fs.DirEntry, error) {
	if r == nil {
		return os.ReadDir(real)
	}
	if v, ok := r.resolver.listed.Load(real); ok {
		l := v.(*dirListing)
		return l.entries, l.err
	}
	entries, err := os.ReadDir(real)
	v, _ := r.resolver.listed.LoadOrStore(real, &dirListing{entries, err})
	l := v.(*dirListing)
	return l.entries, l.err
}
