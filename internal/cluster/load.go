package cluster

import (
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// LoadOptions say how Load reads clusters.
type LoadOptions struct {
	// Build runs kustomize on the kustomization clusters. Without it a
	// kustomization cluster holds the objects as written in the resource
	// files it reads, unpatched, and only the problems found without
	// building (a kustomization that does not parse, a missing or remote
	// entry): what `mirrorlint clusters` shows, at once.
	Build bool
	// Workers is the number of builds run at once; 0 means GOMAXPROCS.
	Workers int
}

// Load reads the given clusters of the result (those not read yet): every
// file they read, once, in parallel, and the kustomize builds they need,
// each kustomization once and in parallel (the full ones while the files
// are read). Set then holds what the loaded
// clusters read, and Notices what is worth telling about the grouping.
func (r *Result) Load(cls []*Cluster, o LoadOptions) {
	d := r.d
	var todo []*Cluster
	for _, c := range cls {
		if !c.loaded {
			todo = append(todo, c)
		}
	}
	if len(todo) == 0 {
		return
	}
	var dirs []string
	wait := func() {}
	if o.Build {
		seen := map[string]bool{}
		for _, c := range todo {
			for _, pt := range c.parts {
				if pt.kust != "" && !seen[pt.kust] && len(d.blocked(d.closureKusts(pt.kust))) == 0 {
					seen[pt.kust] = true
					dirs = append(dirs, pt.kust)
				}
			}
		}
		// The builds that will be full ones run while the files are
		// read (kustomize reads its own); the rest, and the tracing of
		// every build to the files it came from, once they are.
		wait = d.builds.Start(dirs, o.Workers)
	}
	d.readFiles(todo)
	wait()
	if o.Build {
		if d.opts.Load.Access != nil && d.opts.Load.Access.Budget.Spent() {
			// The load spent a budget: the builds are run again, to meet
			// it spent as they do when they run after the load.
			d.builds.Discard()
		}
		d.builds.Run(dirs, o.Workers)
	}
	for _, c := range todo {
		d.assemble(c, o.Build)
		if extra := d.splitPolicies(c); len(extra) > 0 {
			r.Clusters = insertAfter(r.Clusters, c, extra)
			r.all = insertAfter(r.all, c, extra)
		}
	}
	r.Notices = append(r.Notices, d.notices(todo, len(r.all))...)
	r.updateSet()
}

func (d *discoverer) closureKusts(dir string) []*kustomization.File {
	kusts, _ := d.graph.Closure(dir)
	return kusts
}

// readFiles reads every file the clusters read that was not read yet, in
// one parallel load: the files listed under the path arguments through
// their listings, the others (a base above the argument) by name.
func (d *discoverer) readFiles(cls []*Cluster) {
	start := time.Now()
	want := map[string]bool{}
	for _, c := range cls {
		for _, pt := range c.parts {
			if pt.kust != "" {
				_, files := d.graph.Closure(pt.kust)
				for _, f := range files {
					want[f] = true
					for _, l := range d.loose[f] {
						want[l] = true
					}
				}
			}
			for _, f := range pt.files {
				want[f] = true
			}
		}
	}
	narrow := d.narrowable(cls)
	for f := range want {
		if !d.res.Has(f) {
			continue
		}
		if d.narrowed[f] && !narrow[f] {
			// Read before with less needed of it: read whole now.
			d.res.Forget(f)
			delete(d.narrowed, f)
			continue
		}
		delete(want, f)
	}
	load := d.opts.Load
	if len(narrow) > 0 {
		load.Narrows = func(name string) bool { return narrow[manifest.AbsName(name)] }
		for f := range narrow {
			if want[f] {
				d.narrowed[f] = true
			}
		}
	}
	d.load(want, load, func(set *manifest.Set) {
		d.res.Index(set)
		d.markRead(set, want)
	})
	// A file that vanished, or that no load named, is read as empty once.
	for f := range want {
		d.res.MarkLoaded(f)
	}
	d.statsMu.Lock()
	d.stats.Load += time.Since(start)
	d.statsMu.Unlock()
}

// load reads the files of want (absolute paths) with o, giving each set
// read to got: those the walks listed through their listings, in walk
// order, without asking the file system about their paths again; the
// others (a base above the arguments) by name.
func (d *discoverer) load(want map[string]bool, o manifest.Options, got func(*manifest.Set)) {
	var outside []string
	for f := range want {
		if _, ok := d.listed[f]; !ok {
			outside = append(outside, d.names.display(f))
		}
	}
	for _, l := range d.listings {
		got(l.Load(func(name string) bool { return want[manifest.AbsName(name)] }, o))
	}
	if len(outside) > 0 {
		sort.Strings(outside)
		if set, err := manifest.Load(outside, o); err == nil {
			got(set)
		}
	}
}

// LoadFiles reads files (as the loader names them) with o, the files the
// walks listed through their listings: what manifest.Load of them reads,
// without asking the file system about each path again. What it reads is
// not kept for the clusters.
func (r *Result) LoadFiles(files []string, o manifest.Options) *manifest.Set {
	if r.d == nil {
		if set, err := manifest.Load(files, o); err == nil {
			return set
		}
		return &manifest.Set{}
	}
	want := make(map[string]bool, len(files))
	for _, f := range files {
		want[manifest.AbsName(f)] = true
	}
	out := &manifest.Set{}
	r.d.load(want, o, func(set *manifest.Set) {
		out.Files = append(out.Files, set.Files...)
		out.Objects = append(out.Objects, set.Objects...)
		out.Problems = append(out.Problems, set.Problems...)
	})
	return out
}

// narrowable is which of the plain files of cls a load may read with
// less needed of them (manifest.Options.Narrowed): those of clusters
// made of plain files only, which no kustomization reads or lies beside.
// A finding on an object of such a file stays in that file: no build
// traces a value to it, no patch relocates a finding into it or out of it.
func (d *discoverer) narrowable(cls []*Cluster) map[string]bool {
	if d.opts.Load.Narrowed == nil {
		return nil
	}
	out := map[string]bool{}
	var mixed []*Cluster
	for _, c := range cls {
		if slices.ContainsFunc(c.parts, func(pt part) bool { return pt.kust != "" }) {
			mixed = append(mixed, c)
			continue
		}
		for _, pt := range c.parts {
			for _, f := range pt.files {
				if !d.reached[f] && !d.isKust(filepath.Dir(f)) {
					out[f] = true
				}
			}
		}
	}
	for _, c := range mixed {
		for _, pt := range c.parts {
			for _, f := range pt.files {
				delete(out, f)
			}
		}
	}
	return out
}

func (d *discoverer) markRead(set *manifest.Set, want map[string]bool) {
	for _, f := range set.Files {
		delete(want, manifest.AbsName(f))
	}
}

// assemble fills a cluster from its parts once files are read and builds
// are done.
func (d *discoverer) assemble(c *Cluster, build bool) {
	for _, pt := range c.parts {
		var l *loaded
		if pt.kust != "" {
			l = d.kustomization(pt.kust, build)
			l.problems = append(l.problems, d.notListed(l.inputs)...)
		} else {
			l = d.plain(pt)
		}
		c.add(l, d.names)
	}
	sort.Strings(c.Inputs)
	c.loaded = true
}

// notListed reports the manifests lying in the directory of a
// kustomization among files that it does not list and no other
// kustomization reads, nor a generator of one (see viaGenerator), to every
// cluster that reads that kustomization:
// kustomize does not apply them, and without the warning the file would go
// unchecked or join an unrelated cluster.
func (d *discoverer) notListed(files []string) []manifest.Problem {
	var out []manifest.Problem
	for _, kfPath := range files {
		loose := d.loose[kfPath]
		if len(loose) == 0 {
			continue
		}
		kf := d.graph.Get(filepath.Dir(kfPath))
		if kf == nil || kf.Path != kfPath || kf.Err != nil {
			continue // the kustomization's own problem says more
		}
		for _, f := range loose {
			var objs []*manifest.Object
			for _, o := range d.res.Objects(f) {
				// A workload alone is not worth the warning; a mirror
				// input of a kind kept unmodelled (a HostedCluster, a
				// ClusterInstance) is, but the load may not keep it:
				// the reader of the inputs reports it (ReportUnlisted).
				if !o.Unmodelled {
					objs = append(objs, o)
				}
			}
			probs := d.res.Problems(f)
			if len(objs)+len(probs) == 0 {
				continue
			}
			pos := manifest.Position{File: d.names.display(f), Line: 1, Column: 1}
			if len(objs) > 0 {
				pos = objs[0].Position()
			}
			out = append(out, unlistedProblem(d.names.display(f), d.names.display(kf.Path), pos))
		}
	}
	return out
}

// updateSet makes Set what the loaded clusters read: every file listed,
// and the objects and problems of the loaded clusters, each once.
func (r *Result) updateSet() {
	if r.Set == nil {
		r.Set = &manifest.Set{}
	}
	seenObj := map[*manifest.Object]bool{}
	var problems [][]manifest.Problem
	r.Set.Objects = nil
	for _, c := range r.all {
		if !c.loaded {
			continue
		}
		for _, o := range c.Objects {
			if !seenObj[o] {
				seenObj[o] = true
				r.Set.Objects = append(r.Set.Objects, o)
			}
		}
		problems = append(problems, c.Problems)
	}
	r.Set.Problems = manifest.UniqueProblems(problems...)
}
