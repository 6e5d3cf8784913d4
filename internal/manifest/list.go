package manifest

import (
	"path/filepath"
)

// Listing is the walk of some path arguments without reading any file: the
// files Load would read, in the order it would read them, and the problems
// the walk itself found (a symlink leaving the tree, an unreadable
// directory). Cluster discovery lists a repository first and reads only the
// files of the clusters a run needs.
type Listing struct {
	items []walkItem
	named []string
}

// List walks paths the way Load does (Load is List, then Listing.Load of
// every entry), with the same exclusions. The error is only for a path
// that does not exist.
func List(paths []string, opts Options) (*Listing, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	w := newWalker(opts)
	for _, p := range paths {
		if err := w.root(p); err != nil {
			return nil, err
		}
	}
	return &Listing{items: w.items, named: w.named}, nil
}

// Named returns the files without a manifest extension whose base name
// Options.ListNames holds, named as Files names files.
func (l *Listing) Named() []string { return l.named }

// Files returns the names (as Load names them: the argument joined with the
// path inside it) of the files to read, in walk order. Template files such
// as x.yaml.j2 are left out, as Load leaves them out of Set.Files.
func (l *Listing) Files() []string {
	out := make([]string, 0, len(l.items))
	for _, it := range l.items {
		if it.problem == nil && !it.template {
			out = append(out, it.name)
		}
	}
	return out
}

// Names returns every name the walk met, files, templates and problems, in
// walk order: what Load would report something about.
func (l *Listing) Names() []string {
	out := make([]string, 0, len(l.items))
	for _, it := range l.items {
		out = append(out, it.name)
	}
	return out
}

// Load reads the listed entries whose name keep accepts (every entry when
// keep is nil), in walk order and in parallel, as Load would have: walk
// problems of kept names are kept too.
func (l *Listing) Load(keep func(name string) bool, opts Options) *Set {
	items := l.items
	if keep != nil {
		items = make([]walkItem, 0, len(l.items))
		for _, it := range l.items {
			if keep(it.name) {
				items = append(items, it)
			}
		}
	}
	return runJobs(items, opts, nil)
}

// AbsName is filepath.Abs of a name Load or List returned, or the name
// itself when it has no absolute form (the stream, StreamName).
func AbsName(name string) string {
	if IsStream(name) {
		return name
	}
	if a, err := Abs(filepath.FromSlash(name)); err == nil {
		return a
	}
	return name
}
