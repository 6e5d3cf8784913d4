package project

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/extramanifests"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// Clusters that a mirror input creates (an install-config's cluster, a ZTP
// spoke, a hosted cluster) are named "<kind>/<name>": install-config/,
// agent-installer/, ztp-spoke/, hosted-cluster/.
var createdPrefixes = []string{"install-config/", "agent-installer/", "ztp-spoke/", "hosted-cluster/"}

func createdName(name string) bool {
	for _, p := range createdPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// Created returns the input that created cl, nil for a cluster of the tree
// itself.
func (p *Project) Created(cl *cluster.Cluster) *inputs.Cluster { return p.created[cl] }

// addCreated adds the clusters the tree's mirror inputs create, each with
// the objects the component writes (placed at the input values) and the
// input objects themselves, so that every rule and the renderer see them
// as they see a tree's cluster. global are the run's settings as Open
// resolved them.
func (p *Project) addCreated(opts Options, cfg *config.Config, global cluster.Settings, res *cluster.Result) error {
	p.files, p.load = res.Set.Files, loadOptions(opts, cfg)
	all := inputObjects(res, p.load)
	objs, unapplied := inputs.Applied(all, unlisted(res))
	for _, o := range unapplied {
		// Said on the clusters reading the kustomization, as discovery
		// says it of a mirror object there, so that what the file would
		// have created does not vanish unsaid.
		res.ReportUnlisted(o.File, o.Position(), inputs.Unapplied(o))
	}
	if len(objs) == 0 {
		if createdName(opts.Cluster) {
			return usage("no cluster named %q: the tree creates none (`mirrorlint clusters` lists them)", opts.Cluster)
		}
		return nil
	}
	flagVersion := opts.OpenShiftVersion != "" || cfg.OpenShiftVersion != ""
	r := inputs.Read(objs, versionIf(flagVersion, global))
	p.sites = r.Sites
	names := r.Names(res.DirName)
	p.unlabelled = unlabelledSpokes(r.Clusters, names)
	if createdName(opts.Cluster) {
		full, err := createdFull(opts.Cluster, selectable(names))
		if err != nil {
			return err
		}
		opts.Cluster, p.Selected = full, full
	}
	want := p.selection(opts)
	tree := p.extraTree(res, objs, all)
	spokesApart(p.Clusters, r.Clusters)
	first := map[string]*inputs.Cluster{}
	for i, c := range r.Clusters {
		name := names[i]
		if f := first[name]; f != nil {
			res.Notices = append(res.Notices, fmt.Sprintf("%s is declared again at %s (first at %s): one file declares two clusters of that name, and only the first is linted", name, c.From, f.From))
			continue
		}
		first[name] = c
		if c.Site != nil {
			p.extra[c] = extramanifests.For(c.Site, tree)
		}
		selected := want(name, c)
		if !selected && (opts.Only == nil || c.Kind != "ztp-spoke") {
			continue
		}
		s := global
		if !flagVersion && !c.Version.IsZero() {
			// Its own, still not given: a read of its inputs (a
			// SiteConfig of several sites) takes each one's own.
			s.Version = c.Version
		}
		if c.Kind == "hosted-cluster" {
			// HyperShift guests have no default ClusterImagePolicy.
			s.NoDefaultPolicy = true
		}
		cl := &cluster.Cluster{Name: name, Objects: append(append([]*manifest.Object(nil), c.Objects...), c.Inputs...), Settings: s}
		if why, at := c.NotRendered(); why != "" {
			cl.Stopped = &cluster.Stop{Reason: why, Pos: at}
		}
		if c.Refused {
			// A cluster of its inputs alone (what would be written from
			// them never is): the rules report the refusal where it is,
			// whether or not a cluster of the tree reads the file, and
			// every command names the cluster that never comes to be.
			cl.Objects = append([]*manifest.Object(nil), c.Inputs...)
			cl.Stopped = &cluster.Stop{Reason: c.Refusal(), Pos: c.From}
		}
		withExtra(cl, p.extra[c])
		p.created[cl] = c
		if !selected {
			// A site the commit's policies may reach (see fleet).
			p.spare = append(p.spare, cl)
			continue
		}
		p.Clusters = append(p.Clusters, cl)
	}
	return nil
}

// spokesApart marks the tree's clusters when the inputs create ZTP spokes:
// each spoke is a cluster holding every object of the tree it reads (its
// ClusterImageSet included, in whatever directory), so how it is checked
// is told there, not by a cluster of the tree holding its site alone. A
// run that creates none (a stream) leaves its cluster to tell it.
func spokesApart(treeClusters []*cluster.Cluster, created []*inputs.Cluster) {
	if !slices.ContainsFunc(created, func(c *inputs.Cluster) bool { return c.Kind == "ztp-spoke" }) {
		return
	}
	for _, cl := range treeClusters {
		cl.Settings.SpokesApart = true
	}
}

// selectable are the names a run can select, each once.
func selectable(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// createdFull is the full name of the created cluster --cluster names
// (name has a kind's prefix): name itself, or, when clusters of that
// kind and name were qualified by where they are declared (see
// inputs.Result.Names), the one of them the tree holds; when several,
// the error lists them.
func createdFull(name string, names []string) (string, error) {
	if slices.Contains(names, name) {
		return name, nil
	}
	kind, base, _ := strings.Cut(name, "/")
	var qualified []string
	for _, n := range names {
		if strings.HasPrefix(n, kind+"/") && strings.HasSuffix(n, "/"+base) {
			qualified = append(qualified, n)
		}
	}
	switch len(qualified) {
	case 0:
		return "", usage("no cluster named %q (`mirrorlint clusters` lists the clusters the tree's inputs create)", name)
	case 1:
		return qualified[0], nil
	}
	slices.Sort(qualified)
	return "", usage("no cluster named %q; did you mean %s? (%d %s clusters end in %q, qualified by the directories or files declaring them: name one in full; `mirrorlint clusters` lists them)",
		name, strings.Join(qualified, ", "), len(qualified), kind, base)
}

// inputObjects is inputs.Load of the tree's files without reading again
// what discovery read: when no file it read holds an object that declares
// a cluster (inputs.Declares), inputs.Load gives nothing unless one of the
// files discovery did not read declares one, so only those are looked at.
// What discovery read answers only when it kept every such object: the
// input kinds are kept whenever unmodelled kinds are, and a prefilter
// keeps every file that may hold them. An install-config is known by its
// name, not by what discovery kept, so a file of that name is looked at.
func inputObjects(res *cluster.Result, lo manifest.Options) []*manifest.Object {
	files := res.Set.Files
	if !keepsDeclaring(lo) {
		return inputs.Load(files, lo)
	}
	var unread []string
	for _, f := range files {
		if f == "-" {
			return nil // a stream cannot be read twice (inputs.Load)
		}
		objs, read := res.Read(f)
		if !read || manifest.IsInstallConfigFile(f) {
			unread = append(unread, f)
			continue
		}
		if inputs.AnyDeclares(objs) {
			return inputs.LoadDeclared(files, lo)
		}
	}
	if len(unread) == 0 || !inputs.AnyDeclares(res.LoadFiles(unread, inputs.DeclaringOptions(lo)).Objects) {
		return nil
	}
	return inputs.LoadDeclared(files, lo)
}

// unlisted says which files kustomize does not apply (cluster.Result.Unlisted),
// for inputs.Applied: the inputs read from the whole tree, and a file lying
// in a kustomization's directory unlisted creates no cluster, as it is in
// no cluster of the tree.
func unlisted(res *cluster.Result) func(string) bool {
	return func(file string) bool { return res.Unlisted(file) != "" }
}

// keepsDeclaring reports whether a load with lo keeps every object that
// declares a cluster.
func keepsDeclaring(lo manifest.Options) bool {
	if lo.Unmodelled == manifest.UnmodelledNone {
		return false
	}
	if lo.Prefilter != nil {
		for _, k := range inputs.DeclaringKinds() {
			if !lo.Prefilter.Has(k, lo.Unmodelled) {
				return false
			}
		}
	}
	return true
}

// versionIf is the release the inputs are read as: the one the flags or
// the config give, else none (each input's own, or the newest behaviour).
func versionIf(set bool, s cluster.Settings) render.Version {
	if !set {
		return render.Version{}
	}
	return s.Version
}

// selection says which created clusters a run loads, as load does for
// the tree's: --cluster, Select (the other side of a comparison), Only
// (the clusters reading a committed file: an input, or an extra manifest
// of the site).
func (p *Project) selection(opts Options) func(string, *inputs.Cluster) bool {
	switch {
	case opts.Cluster != "":
		return func(name string, _ *inputs.Cluster) bool { return name == opts.Cluster }
	case opts.Select != nil:
		want := map[string]bool{}
		for _, n := range opts.Select {
			want[n] = true
		}
		return func(name string, _ *inputs.Cluster) bool { return want[name] }
	case opts.Only != nil:
		only := map[string]bool{}
		for _, f := range opts.Only {
			only[f] = true
		}
		return func(_ string, c *inputs.Cluster) bool {
			if p.readsExtra(c, only) {
				return true
			}
			for _, o := range c.Inputs {
				if abs, err := filepath.Abs(o.File); err == nil {
					if real, err := filepath.EvalSymlinks(abs); err == nil && only[real] {
						return true
					}
				}
			}
			return false
		}
	}
	return func(string, *inputs.Cluster) bool { return true }
}
