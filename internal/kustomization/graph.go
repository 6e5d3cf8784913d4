package kustomization

import (
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// Graph holds the kustomizations met so far, parsed once each, and answers
// which kustomization references which and which files each one reads.
// Directories are absolute and clean.
type Graph struct {
	mu       sync.Mutex
	kusts    map[string]*File     // by directory; nil value: no kustomization there
	closures map[string]closureOf // by directory, computed once
}

type closureOf struct {
	kusts []*File
	files []string
}

func NewGraph() *Graph {
	return &Graph{kusts: map[string]*File{}, closures: map[string]closureOf{}}
}

// Get returns the kustomization in dir, parsing it on first use, or nil.
// Safe for concurrent use.
func (g *Graph) Get(dir string) *File {
	g.mu.Lock()
	kf, ok := g.kusts[dir]
	g.mu.Unlock()
	if ok {
		return kf
	}
	if p := Find(dir); p != "" {
		kf = Parse(p)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if old, ok := g.kusts[dir]; ok {
		return old
	}
	g.kusts[dir] = kf
	return kf
}

// Resolved is one local entry of a kustomization with its target on disk.
type Resolved struct {
	Entry
	Abs    string
	IsDir  bool
	Exists bool
}

// Local returns the entries of kf that name local paths, resolved (once:
// the tree does not change during a run). Missing paths are kept (IsDir
// false) so the caller can count them as inputs: creating that file
// changes the build.
func (kf *File) Local() []Resolved {
	kf.localOnce.Do(func() {
		for _, e := range kf.Entries {
			if e.Value == "" || e.IsRemote() || e.IsHelm() {
				continue
			}
			p := filepath.Clean(filepath.Join(kf.Dir, e.Value))
			st, err := os.Stat(p)
			kf.resolved = append(kf.resolved, Resolved{Entry: e, Abs: p, IsDir: err == nil && st.IsDir(), Exists: err == nil})
		}
	})
	return kf.resolved
}

// Children returns the kustomization directories kf references.
func (g *Graph) Children(kf *File) []string {
	var out []string
	for _, r := range kf.Local() {
		if r.IsDir && g.Get(r.Abs) != nil {
			out = append(out, r.Abs)
		}
	}
	return out
}

// Closure returns every kustomization reachable from dir (dir first) and
// every file they read: kustomization files, resources, patches. Computed
// once per directory; the slices are shared, not to be modified.
func (g *Graph) Closure(dir string) (kusts []*File, files []string) {
	g.mu.Lock()
	c, ok := g.closures[dir]
	g.mu.Unlock()
	if ok {
		return c.kusts, c.files
	}
	kusts, files = g.computeClosure(dir)
	g.mu.Lock()
	g.closures[dir] = closureOf{kusts, files}
	g.mu.Unlock()
	return kusts, files
}

func (g *Graph) computeClosure(dir string) (kusts []*File, files []string) {
	seen := map[string]bool{}
	fileSet := map[string]bool{}
	var visit func(d string)
	visit = func(d string) {
		if seen[d] {
			return
		}
		seen[d] = true
		kf := g.Get(d)
		if kf == nil {
			return
		}
		kusts = append(kusts, kf)
		fileSet[kf.Path] = true
		for _, r := range kf.Local() {
			if r.IsDir {
				visit(r.Abs)
			} else {
				fileSet[r.Abs] = true
			}
		}
	}
	visit(dir)
	for f := range fileSet {
		files = append(files, f)
	}
	sort.Strings(files)
	return kusts, files
}

// TopLevel returns the kustomization directories among dirs that no other
// kustomization among dirs references. dirs holds every kustomization found
// in the tree, so direct references are enough.
func (g *Graph) TopLevel(dirs []string) []string {
	referenced := map[string]bool{}
	for _, d := range dirs {
		if kf := g.Get(d); kf != nil {
			for _, c := range g.Children(kf) {
				if c != d {
					referenced[c] = true
				}
			}
		}
	}
	var out []string
	for _, d := range dirs {
		if !referenced[d] {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// ResourceFiles lists the files a closure takes objects from (resources,
// bases and components' resources), not its patches: the objects of the
// cluster before the build.
func ResourceFiles(kusts []*File) []string {
	var out []string
	for i := len(kusts) - 1; i >= 0; i-- {
		for _, r := range kusts[i].Local() {
			if (r.Field == "resources" || r.Field == "bases") && !r.IsDir {
				out = append(out, r.Abs)
			}
		}
	}
	return out
}
