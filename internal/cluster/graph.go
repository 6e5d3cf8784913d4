package cluster

import (
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// graph holds the kustomizations met so far, parsed once each, and answers
// which kustomization references which and which files each one reads.
// Directories are absolute and clean.
type graph struct {
	mu       sync.Mutex
	kusts    map[string]*kustFile // by directory; nil value: no kustomization there
	closures map[string]closureOf // by directory, computed once
}

type closureOf struct {
	kusts []*kustFile
	files []string
}

func newGraph() *graph {
	return &graph{kusts: map[string]*kustFile{}, closures: map[string]closureOf{}}
}

// get returns the kustomization in dir, parsing it on first use, or nil.
// Safe for concurrent use.
func (g *graph) get(dir string) *kustFile {
	g.mu.Lock()
	kf, ok := g.kusts[dir]
	g.mu.Unlock()
	if ok {
		return kf
	}
	if p := findKustFile(dir); p != "" {
		kf = parseKustFile(p)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if old, ok := g.kusts[dir]; ok {
		return old
	}
	g.kusts[dir] = kf
	return kf
}

// resolved is one local entry of a kustomization with its target on disk.
type resolved struct {
	entry
	Abs    string
	IsDir  bool
	Exists bool
}

// local returns the entries of kf that name local paths, resolved (once:
// the tree does not change during a run). Missing paths are kept (IsDir
// false) so the caller can count them as inputs: creating that file
// changes the build.
func (kf *kustFile) local() []resolved {
	kf.localOnce.Do(func() {
		for _, e := range kf.Entries {
			if e.Value == "" || e.isRemote() || e.isHelm() {
				continue
			}
			p := filepath.Clean(filepath.Join(kf.Dir, e.Value))
			st, err := os.Stat(p)
			kf.resolved = append(kf.resolved, resolved{entry: e, Abs: p, IsDir: err == nil && st.IsDir(), Exists: err == nil})
		}
	})
	return kf.resolved
}

// children returns the kustomization directories kf references.
func (g *graph) children(kf *kustFile) []string {
	var out []string
	for _, r := range kf.local() {
		if r.IsDir && g.get(r.Abs) != nil {
			out = append(out, r.Abs)
		}
	}
	return out
}

// closure returns every kustomization reachable from dir (dir first) and
// every file they read: kustomization files, resources, patches. Computed
// once per directory; the slices are shared, not to be modified.
func (g *graph) closure(dir string) (kusts []*kustFile, files []string) {
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

func (g *graph) computeClosure(dir string) (kusts []*kustFile, files []string) {
	seen := map[string]bool{}
	fileSet := map[string]bool{}
	var visit func(d string)
	visit = func(d string) {
		if seen[d] {
			return
		}
		seen[d] = true
		kf := g.get(d)
		if kf == nil {
			return
		}
		kusts = append(kusts, kf)
		fileSet[kf.Path] = true
		for _, r := range kf.local() {
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

// topLevel returns the kustomization directories among dirs that no other
// kustomization among dirs references. dirs holds every kustomization found
// in the tree, so direct references are enough.
func (g *graph) topLevel(dirs []string) []string {
	referenced := map[string]bool{}
	for _, d := range dirs {
		if kf := g.get(d); kf != nil {
			for _, c := range g.children(kf) {
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
