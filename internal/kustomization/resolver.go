package kustomization

import (
	"sync"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// Resolver finds the objects a file holds, from the trees already loaded
// or by loading the file on first use (a base outside the argument).
type Resolver struct {
	mu     sync.Mutex
	byFile map[string][]*manifest.Object
	probs  map[string][]manifest.Problem
	// expansions maps a generator's file to what its expansion read
	// (absolute names).
	expansions map[string]manifest.Expansion
	loaded     map[string]bool
	// texts holds the bytes of files read for their text alone (patches
	// without a kind, which the loader keeps nothing of), by absolute path.
	texts map[string][]byte
	opts  manifest.Options
	// display names a file as the loader shows it (see NewResolver).
	display func(abs string) string
}

// NewResolver returns a Resolver loading files with opts, under the names
// display gives them.
func NewResolver(opts manifest.Options, display func(abs string) string) *Resolver {
	return &Resolver{byFile: map[string][]*manifest.Object{}, probs: map[string][]manifest.Problem{}, expansions: map[string]manifest.Expansion{}, loaded: map[string]bool{},
		texts: map[string][]byte{}, opts: opts, display: display}
}

// text returns the bytes of the file at abs: those the loader kept with its
// objects, else the file read once and kept (a JSON 6902 patch holds no
// object, and its text is wanted again by the fast-build check, by the
// search of every cluster built with it and by the suppression comments of
// the findings placed in it). nil when it cannot be read. Safe for
// concurrent use.
func (r *Resolver) Text(abs string) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.heldLocked(abs); ok {
		return t
	}
	var t []byte
	if r.opts.Access != nil {
		t, _ = r.opts.Access.ReadFile(abs)
	} else {
		t, _ = safefs.ReadRegular(abs)
	}
	r.texts[abs] = t
	return t
}

// held is text without reading anything: the bytes of abs if the Resolver
// holds them already. A file of workloads only is not held (the loader
// keeps no text for them, so that a large tree's text is not kept whole).
func (r *Resolver) Held(abs string) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, _ := r.heldLocked(abs)
	return t
}

func (r *Resolver) heldLocked(abs string) ([]byte, bool) {
	if t, ok := r.texts[abs]; ok {
		return t, true
	}
	for _, o := range r.byFile[abs] {
		if t := o.Text(); t != nil {
			return t, true
		}
	}
	return nil, false
}

// index records what a load found, file by file. A file already indexed
// (two declared paths overlapping) keeps its first objects.
func (r *Resolver) Index(set *manifest.Set) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.indexLocked(set)
}

func (r *Resolver) indexLocked(set *manifest.Set) {
	fresh := map[string]bool{}
	for _, f := range set.Files {
		if abs, err := manifest.Abs(f); err == nil && !r.loaded[abs] {
			r.loaded[abs] = true
			fresh[abs] = true
		}
	}
	// What the walk itself reported (a directory left out on purpose, a
	// symlink leaving the tree) names no file read: it is indexed under
	// the name it is reported at.
	for _, p := range set.Problems {
		if abs, err := manifest.Abs(p.Pos.File); err == nil && !r.loaded[abs] && !fresh[abs] {
			r.loaded[abs] = true
			fresh[abs] = true
		}
	}
	for _, o := range set.Objects {
		if abs, err := manifest.Abs(o.File); err == nil && fresh[abs] {
			r.byFile[abs] = append(r.byFile[abs], o)
		}
	}
	for _, p := range set.Problems {
		if abs, err := manifest.Abs(p.Pos.File); err == nil && fresh[abs] {
			r.probs[abs] = append(r.probs[abs], p)
		}
	}
	for f, g := range set.Expansions {
		abs, err := manifest.Abs(f)
		if err != nil || !fresh[abs] {
			continue
		}
		read := manifest.Expansion{Problems: g.Problems}
		for _, rf := range g.Files {
			if a, err := manifest.Abs(rf); err == nil {
				read.Files = append(read.Files, a)
			}
		}
		r.expansions[abs] = read
	}
}

// Expansion returns what the generators of a file read besides it
// (absolute names), loading the file if needed.
func (r *Resolver) Expansion(abs string) manifest.Expansion {
	r.Objects(abs)
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.expansions[abs]
}

// problems returns the loading problems of one file, loading it if needed.
func (r *Resolver) Problems(abs string) []manifest.Problem {
	r.Objects(abs)
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.probs[abs]
}

// objects returns the objects of one file, loading it if needed (a file
// Load did not read ahead: a patch outside the trees). Safe for concurrent
// use; the slices returned are not modified afterwards.
func (r *Resolver) Objects(abs string) []*manifest.Object {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.loaded[abs] {
		if set, err := manifest.Load([]string{r.Display(abs)}, r.opts); err == nil {
			r.indexLocked(set)
		}
		r.loaded[abs] = true
	}
	return r.byFile[abs]
}

// Loaded returns the objects of a file a load has already read, without
// reading anything; false when none has.
func (r *Resolver) Loaded(abs string) ([]*manifest.Object, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byFile[abs], r.loaded[abs]
}

// markLoaded records a file as read, with whatever it held so far.
func (r *Resolver) MarkLoaded(abs string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.loaded[abs] = true
}

// Forget drops what a load read of a file, so that the next load reads it
// again (one that read it with less needed of it than a later reader
// needs).
func (r *Resolver) Forget(abs string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.loaded, abs)
	delete(r.byFile, abs)
	delete(r.probs, abs)
	delete(r.expansions, abs)
	delete(r.texts, abs)
}

// has reports whether a file was read already.
func (r *Resolver) Has(abs string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.loaded[abs]
}

// Display is the name the loader shows a file under.
func (r *Resolver) Display(abs string) string { return r.display(abs) }
