package cluster

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/extramanifests"
	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Some files of a tree are read as data, never applied as the objects they
// hold, so they form no cluster of their own and are never reported as
// left out of a kustomization:
//
//   - the files a kustomization's configMapGenerator or secretGenerator
//     reads are the generated object's values (asData): a change to one
//     changes that kustomization's build, so the clusters reading it read
//     the file too;
//   - the files of the directories a SiteConfig's generator reads extra
//     manifests from (viaSite, see package extramanifests) reach the
//     spoke only, inside the ConfigMap the generator writes: the hub's
//     cluster running the generator does not hold them, the site's
//     cluster does (the caller attaches them, see Result.GeneratorDir).
//
// A ClusterInstance's extra-manifest ConfigMaps, when generated from
// files, are the first case.

// markDataReads records the generator sources of kusts and the files of
// the extra-manifest directories of their SiteConfig generators, from the
// directory each generator runs in (markRunDirs must have seen every
// kustomization running it). Only the listed files can be grouped, so
// only they are looked at.
func (d *discoverer) markDataReads(kusts []*kustomization.File) {
	siteDirs := map[string][]string{}
	for _, k := range kusts {
		for _, s := range k.Sources {
			if filepath.IsAbs(s.Path) || strings.Contains(s.Path, "://") {
				continue
			}
			f := filepath.Join(k.Dir, filepath.FromSlash(s.Path))
			if !slices.Contains(d.asData[f], k.Path) {
				d.asData[f] = append(d.asData[f], k.Path)
			}
		}
		for _, p := range k.Plugins() {
			if !sitesOnly(p) {
				continue
			}
			run := k.Dir
			if r := d.runDir[p.Entry.Abs]; r != "" {
				run = r
			}
			for _, n := range p.Configs() {
				for _, rel := range extramanifests.SiteConfigDirs(n) {
					if filepath.IsAbs(rel) {
						continue // the container's file system
					}
					dir := filepath.Join(run, filepath.FromSlash(rel))
					if !slices.Contains(siteDirs[dir], k.Path) {
						siteDirs[dir] = append(siteDirs[dir], k.Path)
					}
				}
			}
		}
	}
	if len(siteDirs) == 0 {
		return
	}
	for a := range d.listed {
		if ks := siteDirs[filepath.Dir(a)]; ks != nil && !strings.HasPrefix(filepath.Base(a), ".") {
			d.viaSite[a] = ks
		}
	}
}

// readAsData reports whether abs is read as data (see above), so that it
// belongs to no plain group.
func (d *discoverer) readAsData(abs string) bool {
	return len(d.asData[abs]) > 0 || len(d.viaSite[abs]) > 0
}

// readAsDataReal is readAsData for a symlink-free path.
func (d *discoverer) readAsDataReal(real string) bool {
	for _, m := range []map[string][]string{d.asData, d.viaSite} {
		for f := range m {
			if d.realPath(f) == real {
				return true
			}
		}
	}
	return false
}

// GeneratorDir is the directory a generator file listed by one of the
// tree's kustomizations runs in (see rundir.go), as the loader names
// files; "" for a file no kustomization lists as a generator.
func (r *Result) GeneratorDir(file string) string {
	if r.d == nil || manifest.IsStream(file) {
		return ""
	}
	dir := r.d.generatorDir(manifest.AbsName(file))
	if dir == "" {
		return ""
	}
	return r.d.names.display(dir)
}

// GeneratedConfigMaps are the ConfigMaps the tree's kustomizations
// generate from files, with the files their values are (as the loader
// names files), for the references that name them.
func (r *Result) GeneratedConfigMaps() []extramanifests.Generated {
	if r.d == nil || r.d.graph == nil {
		return nil
	}
	var out []extramanifests.Generated
	for _, dir := range slices.Sorted(maps.Keys(r.d.kustSet)) {
		kf := r.d.graph.Get(dir)
		if kf == nil || kf.Err != nil {
			continue
		}
		byName := map[string]int{}
		for _, s := range kf.Sources {
			// A URL is left out of builds with its generator item.
			if s.Generator != "configMapGenerator" || s.Field != "files" || s.Name == "" || strings.Contains(s.Path, "://") {
				continue
			}
			at := manifest.Position{File: r.d.names.display(kf.Path), Line: s.Line, Column: s.Column}
			i, ok := byName[s.Name]
			if !ok {
				ns := s.Namespace
				if kf.Namespace != "" {
					ns = kf.Namespace // the kustomization's wins
				}
				out = append(out, extramanifests.Generated{Name: s.Name, Namespace: ns, At: at, Hashed: !s.NoHash && !kf.NoHash})
				i = len(out) - 1
				byName[s.Name] = i
			}
			key := s.Key
			if key == "" {
				key = filepath.Base(filepath.FromSlash(s.Path))
			}
			file := r.d.names.display(filepath.Join(kf.Dir, filepath.FromSlash(s.Path)))
			out[i].Files = append(out[i].Files, extramanifests.GeneratedFile{Key: key, File: file, At: at})
		}
	}
	return out
}
