package safefs

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/parallel"
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

// Prefetch lists top and every directory below it that enter admits (all
// when enter is nil; never through a link or into .git) on several
// goroutines at once, so that a walk that follows finds each listing in
// the run's memo (ReadRealDir) instead of waiting for the system call: a
// tree of thousands of small directories is otherwise listed one
// directory at a time. enter is called concurrently. Without a root it
// does nothing.
func (r *Root) Prefetch(top string, enter func(dir string) bool) {
	if r == nil {
		return
	}
	// One depth at a time: a level's directories are listed at once, and
	// their subdirectories make the next level.
	for level := []string{top}; len(level) > 0; {
		subs := make([][]string, len(level))
		parallel.Each(len(level), func(i int) {
			entries, _ := r.ReadRealDir(level[i])
			for _, e := range entries {
				if !e.IsDir() || e.Name() == ".git" {
					continue
				}
				if sub := filepath.Join(level[i], e.Name()); enter == nil || enter(sub) {
					subs[i] = append(subs[i], sub)
				}
			}
		})
		level = slices.Concat(subs...)
	}
}
