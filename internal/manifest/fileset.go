package manifest

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// FileSet is the set of files a directory walk may read (Options.Files):
// what a version-control system holds, for instance, so that a scratch file
// or a build output next to the manifests is not mistaken for one. The set
// only narrows walks: a file named on the command line is always read.
// The zero value is not usable; make one with NewFileSet.
type FileSet struct {
	root  string          // the directory the set describes; outside it, anything goes
	files map[string]bool // real absolute paths
	dirs  map[string]bool // every directory holding a member, up to the root
	trees []string        // directories whose whole content belongs (a submodule)
}

// NewFileSet makes the set of files of the directory root (a repository's
// top level): paths are absolute and, like root, free of symlinks (the walk
// compares real paths; a repository's listing joined to its real top level
// is). A path ending in a separator adds everything below it (a submodule,
// a nested repository). Files outside root are not the set's business:
// they are always read.
func NewFileSet(root string, paths []string) *FileSet {
	s := &FileSet{root: filepath.Clean(root), files: map[string]bool{}, dirs: map[string]bool{}}
	for _, p := range paths {
		s.Add(p)
	}
	return s
}

// Add puts one path in the set (see NewFileSet).
func (s *FileSet) Add(p string) {
	tree := strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator))
	p = filepath.Clean(p)
	if tree {
		s.trees = append(s.trees, p)
	} else {
		s.files[p] = true
	}
	for d := filepath.Dir(p); !s.dirs[d]; d = filepath.Dir(d) {
		s.dirs[d] = true
		if filepath.Dir(d) == d {
			break
		}
	}
}

// Contains reports whether the file at the real (symlink-free) absolute
// path real belongs to the set.
func (s *FileSet) Contains(real string) bool {
	return s.files[real] || s.inTree(real) || s.outside(real)
}

// Enters reports whether a walk should descend into the directory real: it
// holds a member, or lies inside a whole-tree member.
func (s *FileSet) Enters(real string) bool {
	return s.dirs[real] || s.inTree(real) || s.outside(real)
}

// outside reports whether real lies outside the root (not below it, not
// the root itself).
func (s *FileSet) outside(real string) bool {
	_, in := Within(s.root, real)
	return !in
}

func (s *FileSet) inTree(real string) bool {
	for _, t := range s.trees {
		if _, in := Within(t, real); in {
			return true
		}
	}
	return false
}

// Digest writes what the set holds to w, the same for the same set
// whatever order it was built in: a run's whole result depends on which
// files its walks may read (see package pipeline), so a key over the run
// holds the set.
func (s *FileSet) Digest(w io.Writer) {
	if s == nil {
		io.WriteString(w, "no file set\n")
		return
	}
	files := make([]string, 0, len(s.files))
	for f := range s.files {
		files = append(files, f)
	}
	sort.Strings(files)
	trees := append([]string(nil), s.trees...)
	sort.Strings(trees)
	// One write of the whole listing: a repository's set is thousands of
	// names, and a formatted write per name costs more than hashing them.
	b := fmt.Appendf(nil, "file set %q %d %d\n", s.root, len(files), len(trees))
	for _, f := range files {
		b = append(strconv.AppendQuote(b, f), '\n')
	}
	for _, t := range trees {
		b = append(strconv.AppendQuote(append(b, "tree "...), t), '\n')
	}
	w.Write(b)
}
