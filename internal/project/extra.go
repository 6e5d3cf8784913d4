package project

import (
	"path/filepath"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/extramanifests"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// A ZTP site's spoke is installed with its extra manifests beside what
// openshift-install writes (package extramanifests): their objects join
// the site's cluster, placed in their files or on their ConfigMap lines,
// so that every rule and the render see them with the installer's IDMS
// and the policies the site gets. What the tree's other clusters do not
// hold of them is discovery's to say (cluster: read as data).

// ExtraManifests is what the site that created cl gets as extra
// manifests, nil for any other cluster.
func (p *Project) ExtraManifests(cl *cluster.Cluster) *extramanifests.Set {
	if c := p.created[cl]; c != nil {
		return p.extra[c]
	}
	return nil
}

// extraTree is what finding the sites' extra manifests needs of the tree:
// where each SiteConfig generator runs, the ConfigMaps applied on the hub
// (those of applied, read whole) and those kustomize does not apply (the
// others of all), the ConfigMaps kustomizations generate, and the files
// read as the run reads them, each once however many sites read it.
func (p *Project) extraTree(res *cluster.Result, applied, all []*manifest.Object) *extramanifests.Tree {
	isCM := func(o *manifest.Object) bool {
		return o.Kind == manifest.KindConfigMap && o.APIVersion == "v1" && o.Content != nil && !o.Partial
	}
	var cms, unlisted []*manifest.Object
	kept := map[*manifest.Object]bool{}
	for _, o := range applied {
		kept[o] = true
		if isCM(o) {
			cms = append(cms, o)
		}
	}
	for _, o := range all {
		if !kept[o] && isCM(o) {
			unlisted = append(unlisted, o)
		}
	}
	read := map[string]*manifest.Set{}
	return &extramanifests.Tree{
		RunDir:     res.GeneratorDir,
		ConfigMaps: cms,
		Unlisted:   unlisted,
		Generated:  res.GeneratedConfigMaps(),
		Keep:       p.load.Unmodelled,
		Access:     p.load.Access,
		Load: func(files []string) *manifest.Set {
			out := &manifest.Set{}
			for _, f := range files {
				set, ok := read[f]
				if !ok {
					set = res.LoadFiles([]string{f}, p.load)
					read[f] = set
				}
				out.Files = append(out.Files, set.Files...)
				out.Objects = append(out.Objects, set.Objects...)
				out.Problems = append(out.Problems, set.Problems...)
			}
			return out
		},
	}
}

// withExtra is the cluster of created input c holding its site's extra
// manifests too: their objects, their problems, and, when a component
// refuses them, the spoke stopped there (it is never installed).
func withExtra(cl *cluster.Cluster, set *extramanifests.Set) {
	if set == nil {
		return
	}
	cl.Objects = append(cl.Objects, set.Objects...)
	cl.Problems = append(cl.Problems, set.Problems...)
	if set.Refused != nil && cl.Stopped == nil {
		cl.Stopped = &cluster.Stop{Reason: set.Refused.Reason, Pos: set.Refused.Pos}
	}
}

// readsExtra reports whether the extra manifests of c read one of only
// (real absolute paths): a file of theirs, or a file added to one of the
// directories they are read from.
func (p *Project) readsExtra(c *inputs.Cluster, only map[string]bool) bool {
	set := p.extra[c]
	if set == nil {
		return false
	}
	for _, f := range set.Files {
		if only[manifest.RealPath(manifest.AbsName(f))] {
			return true
		}
	}
	for _, d := range set.Dirs {
		real := manifest.RealPath(manifest.AbsName(d))
		for o := range only {
			if filepath.Dir(o) == real {
				return true
			}
		}
	}
	return false
}

// extraUnlinted reports whether file is read by the extra manifests of a
// site whose cluster the run does not lint.
func (p *Project) extraUnlinted(file string) bool {
	real := manifest.RealPath(manifest.AbsName(file))
	linted := map[*inputs.Cluster]bool{}
	for _, cl := range p.Clusters {
		if c := p.created[cl]; c != nil {
			linted[c] = true
		}
	}
	for c := range p.extra {
		if !linted[c] && p.readsExtra(c, map[string]bool{real: true}) {
			return true
		}
	}
	return false
}
