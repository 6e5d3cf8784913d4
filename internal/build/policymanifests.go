package build

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/trace"
	"github.com/mirrorlint/mirrorlint/internal/ztp"
)

// The policy generator builds a manifest directory holding a
// kustomization with kustomize's defaults and takes the built objects as
// the path's manifests (see ztp/kustomized.go). The loader expands
// generators while it reads the tree, below this package, so it is handed
// the build as a function (manifest.Options.Kustomize). The build is the
// one `kustomize build DIR` runs here (no plugins, never the network,
// every read through the access layer, under the schema gate and the time
// limit), with its objects' nodes placed in the files they came from
// (trace.Placer).

// PolicyManifests is the loader's build of PolicyGenerator manifest
// directories: their kustomizations are parsed through g, files read as
// load reads them.
func PolicyManifests(g *kustomization.Graph, load manifest.Options) ztp.Kustomizer {
	load.Kustomize = nil
	return func(dir string) (ztp.Kustomized, error) { return policyManifests(g, load, dir) }
}

func policyManifests(g *kustomization.Graph, load manifest.Options, dir string) (out ztp.Kustomized, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return out, err
	}
	kusts := confinedClosure(g, load.Access, abs)
	if len(kusts) == 0 {
		if _, err := load.Access.Resolve(abs); err != nil {
			return out, &ztp.NotBuilt{Reason: fmt.Sprintf("mirrorlint stopped its build: %v", err)}
		}
		return out, fmt.Errorf("no kustomization in %s", abs)
	}
	kf := kusts[0]
	if why, helm := unbuildable(kusts); why != "" {
		return out, &ztp.NotBuilt{Reason: why, Helm: helm}
	}
	guard := safefs.NewKustomizeFS(load.Access)
	guard.Deadline = time.Now().Add(DefaultBuildTimeout)
	kept := &keptFS{FileSystem: guard}
	defer func() { out.Files = kept.files() }()
	fsys := originFS(kept, kf.Path)
	var m resmap.ResMap
	custom := slices.ContainsFunc(kusts, func(k *kustomization.File) bool { return k.Fields["openapi"] })
	runBuild(custom, func() { m, err = runKustomize(fsys, abs) })
	if err == nil {
		err = guard.Expired()
	}
	if err != nil {
		err = guard.Explain(err)
		if why := refusal(err); why != nil {
			var ref *safefs.Refusal
			if errors.As(err, &ref) {
				why = ref
			}
			return out, &ztp.NotBuilt{Reason: fmt.Sprintf("mirrorlint stopped its build: %v", why), Limit: isLimit(err)}
		}
		return out, err
	}
	placer := &trace.Placer{Dir: abs, Read: kept.ReadFile, Load: load}
	for _, r := range m.Resources() {
		origin := ""
		if or, err := r.GetOrigin(); err == nil && or != nil && or.Repo == "" {
			origin = or.Path
		}
		if err := r.SetOrigin(nil); err != nil {
			return out, fmt.Errorf("removing origin annotations: %w", err)
		}
		// The values `kustomize build` prints, as a build of a
		// cluster reads them (printBuilt).
		text, err := nodeJSON(r.YNode())
		if err != nil {
			return out, err
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(text, &doc); err != nil || len(doc.Content) == 0 {
			continue
		}
		n := doc.Content[0]
		src := kf.Path
		if origin != "" {
			src = filepath.Join(abs, filepath.FromSlash(origin))
		}
		out.Objects = append(out.Objects, ztp.Built{Node: n, Files: placer.Place(n, origin), Source: src})
	}
	return out, nil
}

// runKustomize is the generator's kustomize run, with kustomize's default
// options (kustomizer). A panic inside kustomize is the build's error.
func runKustomize(fsys filesys.FileSystem, dir string) (m resmap.ResMap, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("kustomize failed on this kustomization (it panicked: %v)", r)
		}
	}()
	return kustomizer().Run(fsys, dir)
}

// confinedClosure is the kustomizations dir's build reads, dir's first,
// those the access layer refuses left out (the build stops at them): the
// graph parses what it is asked, inside the repository or not.
func confinedClosure(g *kustomization.Graph, access *safefs.Root, dir string) []*kustomization.File {
	var kusts []*kustomization.File
	seen := map[string]bool{}
	var visit func(d string)
	visit = func(d string) {
		if seen[d] {
			return
		}
		seen[d] = true
		if _, err := access.Resolve(d); err != nil {
			return
		}
		kf := g.Get(d)
		if kf == nil {
			return
		}
		kusts = append(kusts, kf)
		for _, r := range kf.Local() {
			if r.IsDir {
				visit(r.Abs)
			}
		}
	}
	visit(dir)
	return kusts
}

// unbuildable says why a closure is not built at all: what its build
// needs that mirrorlint never does (inflate a Helm chart, fetch a remote
// base), which the generator may well do (it inflates charts when its
// environment enables Helm); "" when nothing stops it.
func unbuildable(kusts []*kustomization.File) (why string, helm bool) {
	for _, k := range kusts {
		for _, e := range k.Entries {
			switch {
			case e.IsHelm():
				return fmt.Sprintf("its %s entry %q (in %s) inflates a Helm chart, which mirrorlint does not do (it runs no helm)", e.Field, e.Value, k.Path), true
			case e.IsRemote():
				return fmt.Sprintf("its %s entry %q (in %s) is remote, which mirrorlint does not fetch", e.Field, e.Value, k.Path), false
			}
		}
	}
	return "", false
}

// isLimit reports whether the access layer stopped the build at one of
// the run's limits (rather than at a read it never makes).
func isLimit(err error) bool {
	for _, l := range []error{safefs.ErrTooLarge, safefs.ErrBudget, safefs.ErrMemory, safefs.ErrBuildResources, safefs.ErrBuildWork, safefs.ErrBuildTimeout} {
		if errors.Is(err, l) {
			return true
		}
	}
	return false
}

// keptFS keeps the text of every file a build reads: the objects' nodes
// are placed in them, and the loader keeps them to find where a node ends.
type keptFS struct {
	filesys.FileSystem
	mu   sync.Mutex
	read map[string][]byte
}

func (k *keptFS) ReadFile(p string) ([]byte, error) {
	k.mu.Lock()
	data, ok := k.read[p]
	k.mu.Unlock()
	if ok {
		return data, nil
	}
	data, err := k.FileSystem.ReadFile(p)
	if err == nil {
		k.mu.Lock()
		if k.read == nil {
			k.read = map[string][]byte{}
		}
		k.read[p] = data
		k.mu.Unlock()
	}
	return data, err
}

// files are the files read, by name.
func (k *keptFS) files() []ztp.File {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]ztp.File, 0, len(k.read))
	for p, data := range k.read {
		out = append(out, ztp.File{Name: p, Data: data})
	}
	slices.SortFunc(out, func(a, b ztp.File) int { return cmp.Compare(a.Name, b.Name) })
	return out
}
