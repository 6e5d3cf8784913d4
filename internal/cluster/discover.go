package cluster

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Options are what Discover needs.
type Options struct {
	// Paths are the command-line arguments ("." when empty).
	Paths []string
	// Config may be nil; its clusters, when declared, win.
	Config *config.Config
	Load   manifest.Options
}

// Discover finds the clusters under opts.Paths and loads each one. In
// order of precedence: clusters declared in the config; otherwise every
// top-level kustomization, plus one cluster of the files no kustomization
// reaches; a tree without kustomizations, or file and stream arguments,
// give one unnamed cluster, as before clusters existed. The error is only
// for an argument or declared path that does not exist.
func Discover(opts Options) (*Result, error) {
	if len(opts.Paths) == 0 {
		opts.Paths = []string{"."}
	}
	res := &Result{}
	d := &discoverer{opts: opts, graph: newGraph(), stats: &res.Stats}
	allDirs := true
	for _, p := range opts.Paths {
		if p == "-" {
			// A stream: no tree was looked at, every reader is unknown.
			res.roots = []string{}
			return d.single(res)
		}
		if st, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("%s: %w", p, manifest.ErrNotFound)
		} else if !st.IsDir() {
			allDirs = false
		}
	}
	if opts.Config != nil && len(opts.Config.Clusters) > 0 {
		return d.declared(res)
	}
	for _, p := range opts.Paths {
		res.roots = append(res.roots, manifest.RealPath(p))
	}
	var err error
	if !allDirs {
		res, err = d.single(res)
	} else {
		res, err = d.trees(res)
	}
	if res != nil && res.all == nil {
		res.all = res.Clusters
	}
	return res, err
}

// single is the whole input as one unnamed cluster.
func (d *discoverer) single(res *Result) (*Result, error) {
	start := time.Now()
	set, err := manifest.Load(d.opts.Paths, d.opts.Load)
	d.stats.Load += time.Since(start)
	if err != nil {
		return nil, err
	}
	d.stats.Files = len(set.Files)
	d.names = &namer{}
	return d.whole(res, set), nil
}

// whole makes one unnamed cluster of everything loaded: the behaviour for
// trees without kustomizations, so their output does not change.
func (d *discoverer) whole(res *Result, set *manifest.Set) *Result {
	res.Set = set
	cl := &Cluster{Source: FromPlain, Reason: "no kustomization: the whole input is one cluster", Paths: d.opts.Paths,
		Objects: set.Objects, Problems: set.Problems}
	for _, f := range set.Files {
		if abs, err := filepath.Abs(f); err == nil {
			cl.addInput(abs, d.names)
		}
	}
	for _, p := range d.opts.Paths {
		if abs, err := filepath.Abs(p); err == nil && isDir(abs) {
			cl.dirs = append(cl.dirs, abs)
		}
	}
	res.Clusters = []*Cluster{cl}
	return res
}

// trees discovers kustomizations under each directory argument.
func (d *discoverer) trees(res *Result) (*Result, error) {
	d.names = &namer{multi: len(d.opts.Paths) > 1}
	d.res = newResolver(d.opts.Load, d.names)
	res.Set = &manifest.Set{}
	sets := make([]*manifest.Set, len(d.opts.Paths))
	kdirs := make([][]string, len(d.opts.Paths))
	found := 0
	for i, p := range d.opts.Paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		d.names.roots = append(d.names.roots, root{abs: abs, arg: p})
		start := time.Now()
		set, err := manifest.Load([]string{p}, d.opts.Load)
		d.stats.Load += time.Since(start)
		if err != nil {
			return nil, err
		}
		d.stats.Files += len(set.Files)
		d.res.index(set)
		sets[i] = set
		res.Set.Objects = append(res.Set.Objects, set.Objects...)
		res.Set.Problems = append(res.Set.Problems, set.Problems...)
		res.Set.Files = append(res.Set.Files, set.Files...)
		kdirs[i] = d.kustDirs(abs, set)
		found += len(kdirs[i])
	}
	d.stats.Kustomizations = found
	if found == 0 {
		return d.whole(res, res.Set), nil
	}
	for i, set := range sets {
		res.Clusters = append(res.Clusters, d.tree(d.names.roots[i], set, kdirs[i])...)
	}
	for _, c := range res.Clusters {
		c.res = d.res
	}
	res.Set.Objects = dropUnheld(res.Set.Objects, res.Clusters)
	return res, nil
}

// dropUnheld leaves out of the loaded objects those of unmodelled kinds no
// cluster holds (a workload in a directory without mirror objects): no
// rule or policy reads them, and on a large tree they are most of it.
func dropUnheld(objs []*manifest.Object, clusters []*Cluster) []*manifest.Object {
	held := map[*manifest.Object]bool{}
	for _, c := range clusters {
		for _, o := range c.Objects {
			held[o] = true
		}
	}
	out := objs[:0:0]
	for _, o := range objs {
		if !o.Unmodelled || held[o] {
			out = append(out, o)
		}
	}
	return out
}

// kustDirs finds the kustomization directories of a tree: the directories
// of the files the loader read, and their parents up to the root (a
// directory may hold only a Kustomization file and subdirectories).
func (d *discoverer) kustDirs(rootAbs string, set *manifest.Set) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range set.Files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		for dir := filepath.Dir(abs); !seen[dir]; dir = filepath.Dir(dir) {
			seen[dir] = true
			if _, in := manifest.Within(rootAbs, dir); !in {
				break
			}
			if d.graph.get(dir) != nil {
				out = append(out, dir)
			}
		}
	}
	sort.Strings(out)
	return out
}

// tree makes the clusters of one root: one per top-level kustomization,
// and the plain clusters of the files none of them reaches.
func (d *discoverer) tree(r root, set *manifest.Set, kdirs []string) []*Cluster {
	var out []*Cluster
	reached := map[string]bool{}
	for _, dir := range d.graph.topLevel(kdirs) {
		cl := &Cluster{Name: d.names.clusterName(r, dir), Source: FromKustomization,
			Reason: "top-level kustomization: no other kustomization references it", Paths: []string{d.names.display(dir)}}
		cl.add(d.kustomization(dir), d.names)
		for f := range cl.inputs {
			reached[f] = true
		}
		out = append(out, cl)
	}
	// Kustomizations in a reference cycle are nobody's top level; their
	// files are still not plain files.
	for _, dir := range kdirs {
		_, files := d.graph.closure(dir)
		for _, f := range files {
			reached[f] = true
		}
	}
	return append(out, d.plainClusters(r, set, kdirs, reached, out)...)
}

// plainClusters groups the files no kustomization reaches. A file in a
// kustomization directory that its kustomization does not list is not
// applied by kustomize: it is reported to the clusters that read that
// kustomization (not-in-kustomization) and belongs to no cluster. The
// other files form one cluster per top-most directory holding such files,
// with the directories below it up to the next kustomization directory,
// named after that directory: clusters/lab and clusters/edge are two
// clusters, clusters/lab/mirrors is part of clusters/lab. A directory
// that only holds directories (clusters/) is no cluster of its own, so
// side-by-side cluster directories stay apart.
func (d *discoverer) plainClusters(r root, set *manifest.Set, kdirs []string, reached map[string]bool, kustClusters []*Cluster) []*Cluster {
	abs := func(file string) string {
		a, err := filepath.Abs(file)
		if err != nil || reached[a] {
			return ""
		}
		return a
	}
	// The files that hold something to lint decide the groups.
	byFile := map[string]*Cluster{}
	var order []string
	holding := func(file string) *Cluster {
		a := abs(file)
		if a == "" {
			return nil
		}
		if byFile[a] == nil {
			byFile[a] = &Cluster{}
			order = append(order, a)
		}
		return byFile[a]
	}
	// Objects of other kinds (kept for the rules about image pulls and for
	// policies) join the cluster of their directory but make none.
	var unmodelled []*manifest.Object
	for _, o := range set.Objects {
		if o.Unmodelled {
			unmodelled = append(unmodelled, o)
			continue
		}
		if c := holding(o.File); c != nil {
			c.Objects = append(c.Objects, o)
		}
	}
	for _, p := range set.Problems {
		if c := holding(p.Pos.File); c != nil {
			c.Problems = append(c.Problems, p)
		}
	}
	held := map[string]bool{} // directories directly holding plain files
	for _, f := range order {
		dir := filepath.Dir(f)
		if kf := d.graph.get(dir); kf != nil {
			d.notListed(f, byFile[f], kf, kustClusters)
			continue
		}
		held[dir] = true
	}
	// top is the group of a directory: its highest ancestor (itself
	// included) holding plain files, not crossing a kustomization
	// directory nor leaving the root.
	top := func(dir string) string {
		best := ""
		for a := dir; ; a = filepath.Dir(a) {
			if _, in := manifest.Within(r.abs, a); !in || (a != dir && d.graph.get(a) != nil) {
				break
			}
			if held[a] {
				best = a
			}
			if a == r.abs || filepath.Dir(a) == a {
				break
			}
		}
		return best
	}
	groups := map[string]*Cluster{}
	var tops []string
	group := func(dir string) *Cluster {
		t := top(dir)
		if t == "" {
			return nil
		}
		if groups[t] == nil {
			groups[t] = &Cluster{Source: FromPlain, Reason: "files no kustomization reaches", res: d.res,
				Name: d.names.clusterName(r, t), Paths: []string{d.names.display(t)}}
			tops = append(tops, t)
		}
		return groups[t]
	}
	for _, f := range order {
		if held[filepath.Dir(f)] {
			cl := group(filepath.Dir(f))
			cl.Objects = append(cl.Objects, byFile[f].Objects...)
			cl.Problems = append(cl.Problems, byFile[f].Problems...)
		}
	}
	for _, o := range unmodelled {
		if a := abs(o.File); a != "" && d.graph.get(filepath.Dir(a)) == nil {
			if cl := groups[top(filepath.Dir(a))]; cl != nil {
				cl.Objects = append(cl.Objects, o)
			}
		}
	}
	// Every file the group's directories hold is an input, objects or not.
	for _, f := range set.Files {
		if a := abs(f); a != "" && d.graph.get(filepath.Dir(a)) == nil {
			if cl := groups[top(filepath.Dir(a))]; cl != nil {
				cl.addInput(a, d.names)
			}
		}
	}
	sort.Strings(tops)
	var out []*Cluster
	for _, t := range tops {
		cl := groups[t]
		// A new file under the directory belongs to the cluster, unless
		// the directory also holds kustomizations (the root, when files
		// lie at the top): then only the files read are its own.
		nested := false
		for _, k := range kdirs {
			if _, in := manifest.Within(t, k); in {
				nested = true
			}
		}
		if !nested {
			cl.dirs = []string{t}
		}
		out = append(out, cl)
	}
	return out
}

// notListed reports a manifest lying in kf's directory that kf does not
// list, to every cluster that reads kf: kustomize does not apply it, and
// without the warning the file would go unchecked or join an unrelated
// cluster.
func (d *discoverer) notListed(file string, held *Cluster, kf *kustFile, kustClusters []*Cluster) {
	if kf.Err != nil {
		return // the kustomization's own problem says more
	}
	pos := manifest.Position{File: d.names.display(file), Line: 1, Column: 1}
	if len(held.Objects) > 0 {
		pos = held.Objects[0].Position()
	}
	p := manifest.Problem{Pos: pos, Code: "not-in-kustomization", Warning: true,
		Message: fmt.Sprintf("%s is not listed in %s: kustomize does not apply it", d.names.display(file), d.names.display(kf.Path))}
	for _, cl := range kustClusters {
		if cl.inputs[kf.Path] {
			cl.Problems = append(cl.Problems, p)
		}
	}
}

// declared loads the clusters the config file names. Paths are relative to
// the config file; a directory holding a kustomization is built, anything
// else is read as it is. Path arguments other than "." keep the clusters
// that include one of them.
func (d *discoverer) declared(res *Result) (*Result, error) {
	cfg := d.opts.Config
	cfgDir := "."
	if cfg.Path != "" {
		cfgDir = filepath.Dir(cfg.Path)
	}
	abs, err := filepath.Abs(cfgDir)
	if err != nil {
		return nil, err
	}
	arg := cfgDir
	if wd, err := os.Getwd(); err == nil {
		if rel, ok := manifest.Within(wd, abs); ok {
			arg = rel
		}
	}
	d.names = &namer{roots: []root{{abs: abs, arg: arg}}}
	d.res = newResolver(d.opts.Load, d.names)
	res.Set = &manifest.Set{}
	for _, cc := range cfg.Clusters {
		cl := &Cluster{Name: cc.Name, Source: FromConfig, Reason: "declared in " + d.names.display(absOr(cfg.Path)),
			ReleaseImage: cc.ReleaseImage, OpenShiftVersion: cc.OpenShiftVersion, res: d.res}
		var pas []string
		for _, p := range cc.Paths {
			pa, err := filepath.Abs(cfg.Resolve(p))
			if err != nil {
				return nil, err
			}
			if _, err := os.Stat(pa); err != nil {
				return nil, fmt.Errorf("%s: cluster %s: path %s: %w", cfg.Path, cc.Name, p, manifest.ErrNotFound)
			}
			pas = append(pas, pa)
		}
		skip, built := d.overlaps(pas)
		for i, pa := range pas {
			shown := d.names.display(pa)
			cl.Paths = append(cl.Paths, shown)
			switch {
			case skip[i]:
				// Another path's kustomization builds it, patches applied;
				// its inputs are that build's inputs already.
			case d.isKust(pa):
				cl.add(d.kustomization(pa), d.names)
			default:
				cl.add(d.plain(shown).without(built), d.names)
			}
		}
		sort.Strings(cl.Inputs)
		res.Clusters = append(res.Clusters, cl)
	}
	res.all = res.Clusters
	if !onlyDot(d.opts.Paths) {
		res.Clusters = including(res.Clusters, d.opts.Paths)
		if len(res.Clusters) == 0 {
			return nil, fmt.Errorf("no cluster declared in %s includes %s: %w", cfg.Path, strings.Join(d.opts.Paths, ", "), manifest.ErrNotFound)
		}
	}
	for _, c := range res.Clusters {
		res.Set.Objects = append(res.Set.Objects, c.Objects...)
		res.Set.Problems = append(res.Set.Problems, c.Problems...)
		res.Set.Files = append(res.Set.Files, c.Inputs...)
	}
	return res, nil
}

func (d *discoverer) isKust(abs string) bool { return isDir(abs) && d.graph.get(abs) != nil }

// overlaps finds, among one declared cluster's paths (absolute), those
// another of its kustomization paths already builds: a base directory an
// overlay references, a file it lists. Reading them again would add the
// unpatched copy of objects the overlay patches, and whichever copy came
// first would win. built holds every file the kept kustomizations read,
// for plain directories that are only partly built. Two kustomizations
// that reference each other (a cycle) keep the first declared.
func (d *discoverer) overlaps(pas []string) (skip []bool, built map[string]bool) {
	type closure struct{ kusts, files map[string]bool }
	cls := make([]*closure, len(pas))
	for j, pa := range pas {
		if !d.isKust(pa) {
			continue
		}
		kusts, files := d.graph.closure(pa)
		c := &closure{kusts: map[string]bool{}, files: map[string]bool{}}
		for _, k := range kusts {
			if k.Dir != pa {
				c.kusts[k.Dir] = true
			}
		}
		for _, f := range files {
			c.files[f] = true
		}
		cls[j] = c
	}
	covers := func(j, i int) bool {
		c := cls[j]
		return c != nil && j != i && (c.kusts[pas[i]] || c.files[pas[i]])
	}
	skip = make([]bool, len(pas))
	built = map[string]bool{}
	for i := range pas {
		for j := range pas {
			if covers(j, i) && !(covers(i, j) && i < j) {
				skip[i] = true
				break
			}
		}
	}
	for j, c := range cls {
		if c != nil && !skip[j] {
			for f := range c.files {
				built[f] = true
			}
		}
	}
	return skip, built
}

// including keeps the clusters that read one of paths, or a file under a
// directory among paths.
func including(cls []*Cluster, paths []string) []*Cluster {
	var out []*Cluster
	for _, c := range cls {
		if c.touches(paths) {
			out = append(out, c)
		}
	}
	return out
}

func (c *Cluster) touches(paths []string) bool {
	for _, p := range paths {
		if c.Includes(p) {
			return true
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		for f := range c.inputs {
			if _, in := manifest.Within(abs, f); in {
				return true
			}
		}
	}
	return false
}

func onlyDot(paths []string) bool {
	for _, p := range paths {
		if path.Clean(filepath.ToSlash(p)) != "." {
			return false
		}
	}
	return true
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
