package project

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/suggest"
	"github.com/mirrorlint/mirrorlint/render"
)

// root is the directory cluster names are relative to: the config file's
// when there is one (declared paths are relative to it, and a suggested
// clusters: entry goes there), else the repository root the caller gave.
func root(opts Options, cfg *config.Config) string {
	if cfg != nil && cfg.Path != "" {
		return filepath.Dir(cfg.Path)
	}
	return opts.Root
}

// loadOptions are the loader settings of a run. The prefilter is on only
// when the run reports on some files (Only) and knows what it reads
// (Needs): a file it leaves unparsed can hold nothing that run reads, and
// whatever else is wrong in it lies outside the report anyway.
func loadOptions(opts Options, cfg *config.Config) manifest.Options {
	lo := manifest.Options{MaxFileSize: opts.MaxFileSize, Exclude: cfg.Exclude, Files: opts.Files, Unmodelled: opts.Unmodelled,
		Cache: opts.Cache, Blobs: opts.Blobs, Access: opts.Access, SourceCRs: cfg.SourceCRDirs()}
	if opts.Only != nil && opts.Needs != nil {
		lo.Prefilter, lo.Narrowed = opts.Needs, opts.Narrowed
		lo.ParseAll = reportedFile(opts.Only)
	}
	return lo
}

// reportedFile reports whether a file the loader names is one of only (real
// absolute paths): those are parsed in full, so that what is wrong in them
// is reported. The base name is compared first, so that only a few names
// cost a look at the file system.
func reportedFile(only []string) func(name string) bool {
	bases := map[string]bool{}
	want := map[string]bool{}
	for _, o := range only {
		bases[filepath.Base(o)] = true
		want[o] = true
	}
	return func(name string) bool {
		if !bases[filepath.Base(name)] {
			return false
		}
		abs := manifest.AbsName(name)
		return want[abs] || want[manifest.RealPath(abs)]
	}
}

// load reads the clusters the run needs: the one --cluster names, else
// those Select names, else those reading one of Only, else all, then of
// those the shard's; builds unless Static.
func load(res *cluster.Result, opts Options) error {
	sel := res.Clusters
	if createdName(opts.Cluster) {
		sel = nil // a cluster an input creates: none of the tree's (see addCreated)
	} else if opts.Cluster != "" {
		c, err := byName(res.Clusters, opts.Cluster)
		if err != nil {
			return err
		}
		sel = []*cluster.Cluster{c}
	} else if opts.Select != nil {
		want := map[string]bool{}
		for _, n := range opts.Select {
			want[n] = true
		}
		sel = nil
		for _, c := range res.Clusters {
			if want[c.Name] {
				sel = append(sel, c)
			}
		}
		if len(sel) == 0 {
			sel = res.Clusters // none of the names: the tree's clusters are named otherwise
		}
	} else if opts.Only != nil {
		want := map[*cluster.Cluster]bool{}
		for _, f := range opts.Only {
			readers, _ := res.Readers(f)
			for _, c := range readers {
				want[c] = true
			}
		}
		sel = nil
		for _, c := range res.Clusters {
			if want[c] {
				sel = append(sel, c)
			}
		}
	}
	if !opts.Shard.Whole() {
		// Only the shard's clusters are read and built.
		var keep []*cluster.Cluster
		for _, c := range sel {
			if opts.Shard.Has(c.Name) {
				keep = append(keep, c)
			}
		}
		sel = keep
	}
	res.Load(sel, cluster.LoadOptions{Build: !opts.Static})
	markAbsent(sel, opts.Absent)
	res.DropEmpty(func(c *cluster.Cluster) bool { return named(c, opts.Cluster) })
	res.Clusters = loadedOnly(res.Clusters)
	return nil
}

// markAbsent gives each cluster of cls that reads one of the absent files
// a problem on that file: before DropEmpty, which would otherwise take a
// cluster whose only file is absent for one holding nothing.
func markAbsent(cls []*cluster.Cluster, absent map[string]string) {
	for f, msg := range absent {
		for _, c := range cls {
			if c.Loaded() && c.Includes(f) {
				c.Problems = append(c.Problems, manifest.Problem{Pos: manifest.Position{File: f}, Message: msg, Code: "read-error"})
			}
		}
	}
}

func loadedOnly(cls []*cluster.Cluster) []*cluster.Cluster {
	var out []*cluster.Cluster
	for _, c := range cls {
		if c.Loaded() {
			out = append(out, c)
		}
	}
	return out
}

// UnnamedCluster is how --cluster names the unnamed cluster (the whole
// tree, or its files no other cluster holds), as render -o names its
// directory: beside the clusters inputs create, it is one of several.
const UnnamedCluster = "."

// named reports whether c is the cluster --cluster's name (made full by
// resolveCluster) selects.
func named(c *cluster.Cluster, name string) bool {
	return c.Name == name || (name == UnnamedCluster && c.Name == "")
}

// byName finds the cluster --cluster names (resolveCluster has made it
// the full name).
func byName(cls []*cluster.Cluster, name string) (*cluster.Cluster, error) {
	for _, c := range cls {
		if named(c, name) {
			return c, nil
		}
	}
	return nil, unknownCluster(name, clusterNames(cls))
}

// resolveCluster is the full name of the cluster --cluster names: the name
// itself when a cluster of the tree is called so or it names a cluster an
// input creates (ztp-spoke/…, which addCreated checks); else the one
// cluster whose name ends in it at a path element, so that a ZTP site is
// selected by the name its SiteConfig gives it (sno1 for ztp-spoke/sno1)
// and overlays/prod by prod. A name that ends several is ambiguous: the
// error lists them; one that ends none gets the nearest names.
func resolveCluster(res *cluster.Result, opts Options, cfg *config.Config) (string, error) {
	name := opts.Cluster
	if name == "" || createdName(name) {
		return name, nil
	}
	if name == UnnamedCluster && slices.ContainsFunc(res.Clusters, func(c *cluster.Cluster) bool { return c.Name == "" }) {
		return name, nil
	}
	names := clusterNames(res.Clusters)
	if slices.Contains(names, name) {
		return name, nil
	}
	// Only a name no tree cluster has costs a read of the inputs.
	names = append(names, createdNames(res, opts, cfg)...)
	var ends []string
	for _, n := range names {
		if strings.HasSuffix(n, "/"+name) {
			ends = append(ends, n)
		}
	}
	switch len(ends) {
	case 1:
		return ends[0], nil
	case 0:
		return "", unknownCluster(name, names)
	}
	slices.Sort(ends)
	return "", usage("no cluster named %q; did you mean %s? (%d clusters end in %q: name one in full; `mirrorlint clusters` lists them)", name, strings.Join(ends, ", "), len(ends), name)
}

// unknownCluster answers a name no cluster has with the few closest
// names, not the whole list (a fleet has hundreds).
func unknownCluster(name string, names []string) error {
	if len(names) == 0 || slices.Equal(names, []string{UnnamedCluster}) {
		return usage("no cluster named %q: this tree is a single cluster (no kustomization, no cluster layout, no clusters: in the config); drop --cluster", name)
	}
	msg := fmt.Sprintf("no cluster named %q", name)
	if near := suggest.Nearest(name, names, 3); len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, ", ") + "?"
	}
	return usage("%s (%d clusters; `mirrorlint clusters` lists them)", msg, len(names))
}

// clusterNames are the names --cluster takes for cls: the unnamed
// cluster's is UnnamedCluster.
func clusterNames(cls []*cluster.Cluster) []string {
	var names []string
	for _, c := range cls {
		if c.Name != "" {
			names = append(names, c.Name)
		} else {
			names = append(names, UnnamedCluster)
		}
	}
	return names
}

// createdNames are the names of the clusters the tree's inputs create
// (those a component refuses too: see addCreated), read from every file:
// a stream cannot be read twice, so it gives none.
func createdNames(res *cluster.Result, opts Options, cfg *config.Config) []string {
	if slices.Contains(res.Set.Files, "-") {
		return nil
	}
	objs, _ := inputs.Applied(inputs.Load(res.Set.Files, loadOptions(opts, cfg)), unlisted(res))
	r := inputs.Read(objs, render.Version{})
	return selectable(r.Names(res.DirName))
}

// Notices are one-line remarks on how the tree was grouped into clusters
// (cluster.Result.Notices), for the command to print.
func (p *Project) Notices() []string {
	if p.Discovery == nil {
		return nil
	}
	return p.Discovery.Notices
}
