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
//
// A kustomization in a reference cycle cannot be built, so its references
// do not make anything a base: a kustomization only a cycle references is
// top-level, linted on its own, as `kustomize build` would build it. Each
// cycle nobody outside it references gives one entry (its first
// directory), whose build fails with kustomize's cycle error, so the cycle
// is reported instead of making its members nobody's cluster.
func (g *Graph) TopLevel(dirs []string) []string {
	cyclic := g.cyclic(dirs)
	referenced := map[string]bool{}
	for _, d := range dirs {
		if kf := g.Get(d); kf != nil {
			for _, c := range g.Children(kf) {
				if c == d {
					continue
				}
				if cyclic[d] != 0 && cyclic[d] != cyclic[c] {
					continue // a cycle's reference out of it
				}
				if cyclic[d] != 0 && cyclic[d] == cyclic[c] {
					continue // inside the cycle: its entry is chosen below
				}
				referenced[c] = true
			}
		}
	}
	var out []string
	entry := map[int]bool{}
	sorted := append([]string(nil), dirs...)
	sort.Strings(sorted)
	for _, d := range sorted {
		if referenced[d] {
			continue
		}
		if c := cyclic[d]; c != 0 {
			if entry[c] {
				continue
			}
			entry[c] = true
		}
		out = append(out, d)
	}
	return out
}

// cyclic numbers the reference cycles among dirs (strongly connected
// components of more than one kustomization, Tarjan's algorithm): 0 for a
// directory in none.
func (g *Graph) cyclic(dirs []string) map[string]int {
	in := map[string]bool{}
	for _, d := range dirs {
		in[d] = true
	}
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	out := map[string]int{}
	next, comp := 0, 0
	var visit func(d string)
	visit = func(d string) {
		index[d], low[d] = next, next
		next++
		stack = append(stack, d)
		onStack[d] = true
		if kf := g.Get(d); kf != nil {
			for _, c := range g.Children(kf) {
				if !in[c] || c == d {
					continue
				}
				if _, seen := index[c]; !seen {
					visit(c)
					low[d] = min(low[d], low[c])
				} else if onStack[c] {
					low[d] = min(low[d], index[c])
				}
			}
		}
		if low[d] != index[d] {
			return
		}
		var members []string
		for {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[top] = false
			members = append(members, top)
			if top == d {
				break
			}
		}
		if len(members) > 1 {
			comp++
			for _, m := range members {
				out[m] = comp
			}
		}
	}
	sorted := append([]string(nil), dirs...)
	sort.Strings(sorted)
	for _, d := range sorted {
		if _, seen := index[d]; !seen {
			visit(d)
		}
	}
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
