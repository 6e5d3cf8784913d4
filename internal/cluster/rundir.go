package cluster

import (
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Both ZTP generators resolve their relative paths (a PolicyGenTemplate's
// source-crs/, a PolicyGenerator's manifest paths) from the directory
// kustomize runs them in: that of the kustomization listing the generator
// file under generators, wherever the file lies. Discovery knows which
// kustomization that is; the loader asks it (manifest.Options.GeneratorDir)
// when it expands the file.
//
// A file that kustomizations of several directories run is expanded once,
// from one of them: the nearest above the file (the deepest directory
// holding it), else, none holding it, the first by path. A generator's
// objects are its file's, one set shared by every cluster that runs it,
// so what that expansion reads is what each of those kustomizations reads
// through it (markGeneratorReads): an edit to it selects them all.

// markRunDirs records the directory each generator of the kustomizations
// kusts runs in. A kustomization is looked at once, however many closures
// hold it (a base of a fleet's overlays); first are those looked at for
// the first time, in order.
func (d *discoverer) markRunDirs(kusts []*kustomization.File) (first []*kustomization.File) {
	for _, k := range kusts {
		if d.runSeen[k.Path] {
			continue
		}
		d.runSeen[k.Path] = true
		first = append(first, k)
		for _, p := range k.Plugins() {
			keys := []string{p.Entry.Abs}
			if real := manifest.RealPath(p.Entry.Abs); real != p.Entry.Abs {
				keys = append(keys, real)
			}
			for _, f := range keys {
				if cur, ok := d.runDir[f]; !ok || nearer(f, k.Dir, cur) {
					d.runDir[f] = k.Dir
				}
			}
		}
	}
	return first
}

// nearer reports whether the kustomization directory a is a better
// directory for the generator file than b: one holding the file before
// one that does not, the deepest of those, then the first by path.
func nearer(file, a, b string) bool {
	ina, inb := holds(a, file), holds(b, file)
	switch {
	case ina != inb:
		return ina
	case ina && len(a) != len(b):
		return len(a) > len(b)
	}
	return a < b
}

func holds(dir, file string) bool {
	return strings.HasPrefix(file, dir+string(filepath.Separator))
}

// generatorDir is manifest.Options.GeneratorDir: the directory the
// generator file at osPath runs in, "" when no kustomization runs it (a
// file given on its own, a generator no kustomization lists), which is
// then expanded from its own directory.
func (d *discoverer) generatorDir(osPath string) string {
	if len(d.runDir) == 0 {
		return ""
	}
	if dir, ok := d.runDir[manifest.AbsName(osPath)]; ok {
		return dir
	}
	return d.runDir[manifest.RealPath(osPath)]
}

// generatorInputs is what an expanded generator file reads from the
// directory it runs in (kustomization.Plugin.Reads).
type generatorInputs struct{ manifests, sourceCRs []string }

// readsOf is what the generator file of p reads, once per file:
// from the directory markRunDirs chose, else from dir, the directory of
// the kustomization naming it.
func (d *discoverer) readsOf(p kustomization.Plugin, dir string) generatorInputs {
	if r, ok := d.reads[p.Entry.Abs]; ok {
		return r
	}
	if run := d.runDir[p.Entry.Abs]; run != "" {
		dir = run
	}
	var r generatorInputs
	r.manifests, r.sourceCRs = p.Reads(dir, d.graph)
	d.reads[p.Entry.Abs] = r
	return r
}
