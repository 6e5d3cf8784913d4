package cluster

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/build"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/parallel"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// Options are what Find and Discover need.
type Options struct {
	// Paths are the command-line arguments ("." when empty).
	Paths []string
	// Stream, when set, is read in place of Paths: one stream of manifests
	// (standard input, the KRM function's items), named
	// manifest.StreamName, as one cluster.
	Stream io.Reader
	// Root is the repository's root directory (the git top level, or the
	// directory of the config file): cluster names and the cluster
	// layouts are paths relative to it. Empty: each path argument is its
	// own root, as when the tree is not in a repository. The package never
	// asks git or the working directory for it.
	Root string
	// Config may be nil; its clusters, when declared, win.
	Config *config.Config
	Load   manifest.Options
	// Needs are the object kinds the run reads (nil: every kind the loader
	// keeps); builds may leave out documents of other kinds when that
	// provably changes nothing else (see build.Config).
	Needs *manifest.Needs

	noFastBuilds bool // tests compare fast builds against full ones
}

// Discover finds the clusters under opts.Paths and loads every one of
// them (Find, then Load with builds). The error is only for an argument
// or declared path that does not exist.
func Discover(opts Options) (*Result, error) {
	res, err := Find(opts)
	if err != nil {
		return nil, err
	}
	res.Load(res.Clusters, LoadOptions{Build: true})
	res.DropEmpty(nil)
	return res, nil
}

// Find finds the clusters under opts.Paths without reading more than the
// kustomization files and the directory listings: in order of precedence,
// the clusters declared in the config; otherwise every top-level
// kustomization, plus the plain groups of the files no kustomization
// reaches (see plainGroup); file and stream arguments give one unnamed
// cluster, read at once. Load reads the clusters a run needs.
func Find(opts Options) (*Result, error) {
	if len(opts.Paths) == 0 {
		opts.Paths = []string{"."}
	}
	start := time.Now()
	res := &Result{}
	d := newDiscoverer(opts, &res.Stats)
	res.d = d
	allDirs := true
	if opts.Stream != nil {
		// A stream: no tree was looked at, every reader is unknown.
		res.roots = []string{}
		return d.single(res)
	}
	for _, p := range opts.Paths {
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
	d.stats.Find += time.Since(start)
	return res, err
}

// discoverer holds what every cluster of one run shares.
type discoverer struct {
	opts  Options
	names *namer
	res   *kustomization.Resolver
	graph *kustomization.Graph
	stats *Stats
	base  string // Options.Root, absolute; "" for none

	listings []*manifest.Listing
	// listed maps the absolute path of every name the walks met to the
	// name; reached holds the files some kustomization's closure reads;
	// viaGenerator maps the manifests a PolicyGenerator of a closure reads
	// (kustomization.Plugin.Reads) to the kustomization files naming the
	// generator.
	listed       map[string]string
	reached      map[string]bool
	viaGenerator map[string][]string
	// viaSourceCR maps the source CRs the generators of a closure read
	// from their kustomization's source-crs (kustomization.Plugin.SourceCRs)
	// to the kustomization files naming the generator: in no cluster of
	// those kustomizations as written, but read by them.
	viaSourceCR map[string][]string
	// asData and viaSite map the files read as data to the kustomization
	// files reading them: generator sources, and the files of the
	// extra-manifest directories of SiteConfig generators (asdata.go).
	asData, viaSite map[string][]string
	// runDir maps a generator file (absolute, and its real path) to the
	// directory of the kustomization it runs in (see rundir.go), from the
	// kustomization files in runSeen; reads holds what each reads there.
	runDir  map[string]string
	runSeen map[string]bool
	reads   map[string]generatorInputs
	// loose maps a kustomization file to the files lying in its directory
	// that no kustomization reads.
	loose map[string][]string
	// narrowed holds the files a load read with less needed of them
	// (narrowable): read again whole when a later load needs them so.
	narrowed map[string]bool
	// kustSet holds the kustomization directories of the listed trees
	// (listedRoots, absolute).
	kustSet     map[string]bool
	listedRoots []string

	// wholeTree: the trees hold no kustomization and no layout, so their
	// plain files are one cluster (see plainGroup).
	wholeTree bool

	builds  *build.Cache
	statsMu sync.Mutex
	realMu  sync.Mutex
	realOf  map[string]string // RealPath cache
	// resolver resolves each directory once (realOf holds whole paths).
	resolver safefs.Resolver
}

func newDiscoverer(opts Options, st *Stats) *discoverer {
	d := &discoverer{opts: opts, graph: kustomization.NewGraph(), stats: st, listed: map[string]string{},
		reached: map[string]bool{}, viaGenerator: map[string][]string{}, viaSourceCR: map[string][]string{},
		asData: map[string][]string{}, viaSite: map[string][]string{},
		runDir: map[string]string{}, runSeen: map[string]bool{}, reads: map[string]generatorInputs{},
		loose: map[string][]string{}, realOf: map[string]string{}, kustSet: map[string]bool{}, narrowed: map[string]bool{}}
	if d.opts.Load.Kustomize == nil {
		// A PolicyGenerator whose manifest path is a kustomization
		// delivers what kustomize builds there; the loader expands it.
		d.opts.Load.Kustomize = build.PolicyManifests(d.graph, d.opts.Load)
	}
	if d.opts.Load.GeneratorDir == nil {
		// Filled as the kustomizations are found, before any file is
		// loaded.
		d.opts.Load.GeneratorDir = d.generatorDir
	}
	if opts.Root != "" {
		if abs, err := filepath.Abs(opts.Root); err == nil {
			d.base = abs
		}
	}
	return d
}

// setNames sets how the run names clusters and files, and with it the
// files read and the builds, which name them.
func (d *discoverer) setNames(n *namer) {
	d.names = n
	d.res = kustomization.NewResolver(d.opts.Load, n.display)
	d.builds = build.New(build.Config{Graph: d.graph, Files: d.res, Load: d.opts.Load, Needs: d.opts.Needs,
		Stats: &d.stats.Stats, NoFast: d.opts.noFastBuilds})
}

// single is the whole input as one unnamed cluster, read at once: files
// given one by one (a list of files is what the user wants checked
// together) and streams.
func (d *discoverer) single(res *Result) (*Result, error) {
	start := time.Now()
	paths := d.opts.Paths
	var set *manifest.Set
	var err error
	if d.opts.Stream != nil {
		paths = []string{manifest.StreamName}
		set, err = manifest.LoadReader(manifest.StreamName, d.opts.Stream, d.opts.Load)
	} else {
		set, err = manifest.Load(paths, d.opts.Load)
	}
	d.stats.Load += time.Since(start)
	if err != nil {
		return nil, err
	}
	d.stats.Files = len(set.Files)
	d.setNames(&namer{})
	res.Set = set
	cl := &Cluster{Source: FromPlain, Reason: "files given one by one: the whole input is one cluster", Paths: paths,
		Objects: set.Objects, Problems: set.Problems, loaded: true, d: d, res: d.res}
	for _, f := range set.Files {
		if !manifest.IsStream(f) {
			cl.addInput(manifest.AbsName(f), d.names)
		}
	}
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil && isDir(abs) {
			cl.dirs = append(cl.dirs, abs)
		}
	}
	res.Clusters = []*Cluster{cl}
	res.all = res.Clusters
	return res, nil
}

// trees finds the kustomizations and plain groups under each directory
// argument, from the directory listings and kustomization files alone.
func (d *discoverer) trees(res *Result) (*Result, error) {
	d.setNames(&namer{multi: len(d.opts.Paths) > 1, base: d.base})
	res.Set = &manifest.Set{}
	kdirs := make([][]string, len(d.opts.Paths))
	var names [][]string
	for i, p := range d.opts.Paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		d.names.roots = append(d.names.roots, root{abs: abs, arg: p})
		lo := d.opts.Load
		lo.ListNames = map[string]bool{"Kustomization": true}
		l, err := manifest.List([]string{p}, lo)
		if err != nil {
			return nil, err
		}
		d.listedRoots = append(d.listedRoots, abs)
		d.listings = append(d.listings, l)
		rootNames := l.Names()
		names = append(names, rootNames)
		for _, n := range rootNames {
			a := manifest.AbsName(n)
			if _, seen := d.listed[a]; !seen {
				d.listed[a] = n
			}
		}
		files := l.Files()
		d.stats.Files += len(files)
		res.Set.Files = append(res.Set.Files, files...)
		kdirs[i] = d.kustDirs(l)
		d.stats.Kustomizations += len(kdirs[i])
	}
	// Every file a kustomization reads, top-level or not (kustomizations
	// in a reference cycle are nobody's top level), is no plain file.
	// The manifests a PolicyGenerator reads are applied through it, not as
	// written: they form no plain cluster and are not left out.
	// What a generator reads depends on the directory it runs in, chosen
	// among every kustomization running it: all are found first.
	// Each kustomization is marked once, however many closures hold it.
	var each []*kustomization.File
	for i := range kdirs {
		for _, dir := range kdirs[i] {
			kusts, files := d.graph.Closure(dir)
			for _, f := range files {
				d.reached[f] = true
			}
			each = append(each, d.markRunDirs(kusts)...)
		}
	}
	d.markGeneratorReads(each)
	d.markDataReads(each)
	// A tree with no kustomization and no layout directory is one cluster
	// (a directory of manifests applied with oc apply -R); otherwise the
	// leftovers are grouped per top-level directory.
	d.wholeTree = true
	for i := range d.opts.Paths {
		if len(kdirs[i]) > 0 {
			d.wholeTree = false
		}
		for _, n := range names[i] {
			if !d.wholeTree {
				break
			}
			if plainGroup(d.layoutRoot(d.names.roots[i]), manifest.AbsName(n), d.isKust, true).kind == groupLayout {
				d.wholeTree = false
			}
		}
	}
	groups := map[string]*Cluster{}
	var order []string
	for i := range d.opts.Paths {
		r := d.names.roots[i]
		for _, dir := range d.graph.TopLevel(kdirs[i]) {
			res.Clusters = append(res.Clusters, d.kustCluster(r, dir))
		}
		for _, n := range names[i] {
			a := manifest.AbsName(n)
			if d.reached[a] || len(d.viaGenerator[a]) > 0 || d.readAsData(a) {
				continue
			}
			if dir := filepath.Dir(a); d.isKust(dir) {
				kf := d.graph.Get(dir)
				d.loose[kf.Path] = append(d.loose[kf.Path], a)
				continue
			}
			g := plainGroup(d.layoutRoot(r), a, d.isKust, d.wholeTree)
			cl := groups[g.dir]
			if cl == nil {
				gg := g
				cl = &Cluster{Source: FromPlain, Reason: g.reason(d.names), Name: d.names.clusterName(r, g.dir),
					Paths: []string{d.names.display(g.dir)}, group: &gg, d: d, res: d.res}
				groups[g.dir] = cl
				order = append(order, g.dir)
			}
			cl.addInput(a, d.names)
			cl.parts = appendFile(cl.parts, a)
		}
	}
	sort.Strings(order)
	for _, dir := range order {
		res.Clusters = append(res.Clusters, groups[dir])
	}
	if len(res.Clusters) == 1 && res.Clusters[0].group.leftover() {
		// No kustomization, no layout and one place holding files: the
		// whole input is one cluster, unnamed as it always was.
		only := res.Clusters[0]
		only.Name = ""
		only.Reason = "no kustomization and no cluster layout (" + strings.Join(Layouts, "/, ") + "/): the whole tree is one cluster"
	}
	for _, c := range res.Clusters {
		sort.Strings(c.Inputs)
	}
	return res, nil
}

// markGeneratorReads records the manifests and source CRs the expanded
// generators of a closure read from the directory they run in (see
// markRunDirs, which must have seen every kustomization running them),
// with the kustomization naming each generator.
func (d *discoverer) markGeneratorReads(kusts []*kustomization.File) {
	for _, k := range kusts {
		for _, p := range k.Plugins() {
			if !p.Expanded {
				continue
			}
			r := d.readsOf(p, k.Dir)
			for _, f := range r.manifests {
				if !slices.Contains(d.viaGenerator[f], k.Path) {
					d.viaGenerator[f] = append(d.viaGenerator[f], k.Path)
				}
			}
			for _, f := range r.sourceCRs {
				if !slices.Contains(d.viaSourceCR[f], k.Path) {
					d.viaSourceCR[f] = append(d.viaSourceCR[f], k.Path)
				}
			}
		}
	}
}

// appendFile adds a plain file to a cluster's single plain part.
func appendFile(parts []part, abs string) []part {
	if len(parts) == 0 {
		parts = []part{{}}
	}
	parts[0].files = append(parts[0].files, abs)
	return parts
}

// kustCluster is the cluster of a top-level kustomization.
func (d *discoverer) kustCluster(r root, dir string) *Cluster {
	cl := &Cluster{Name: d.names.clusterName(r, dir), Source: FromKustomization,
		Reason: "top-level kustomization: no other kustomization references it", Paths: []string{d.names.display(dir)},
		parts: []part{{kust: dir}}, d: d, res: d.res}
	_, files := d.graph.Closure(dir)
	for _, f := range files {
		cl.addInput(f, d.names)
	}
	return cl
}

// layoutRoot is the directory cluster layouts and names are relative to:
// the repository root when the argument lies in it, else the argument.
func (d *discoverer) layoutRoot(r root) string {
	if d.base != "" {
		if _, in := manifest.Within(d.base, r.abs); in {
			return d.base
		}
	}
	return r.abs
}

// isKust reports whether dir holds a kustomization: from the listing for a
// directory inside a listed tree, from the file system elsewhere.
func (d *discoverer) isKust(dir string) bool {
	for _, r := range d.listedRoots {
		if _, in := manifest.Within(r, dir); in {
			return d.kustSet[dir]
		}
	}
	return d.graph.Get(dir) != nil
}

// kustDirs finds the kustomization directories of a tree from its
// listing: the directories holding a file named as kustomize names its
// kustomization (Kustomization, without an extension, is listed through
// ListNames). Any directory inside a listed tree is a kustomization
// directory only if it is one of these (isKust), so no directory of the
// tree is looked at again.
func (d *discoverer) kustDirs(l *manifest.Listing) []string {
	var dirs []string
	for _, n := range append(l.Files(), l.Named()...) {
		if kustomization.IsFileName(path.Base(n)) {
			dirs = append(dirs, filepath.Dir(manifest.AbsName(n)))
		}
	}
	// Parsed at once (the graph keeps each directory's one parse): a
	// fleet's hundreds of kustomizations are otherwise read one by one.
	parallel.Each(len(dirs), func(i int) { d.graph.Get(dirs[i]) })
	var out []string
	for _, dir := range dirs {
		if d.kustSet[dir] {
			continue
		}
		if d.graph.Get(dir) != nil {
			d.kustSet[dir] = true
			out = append(out, dir)
		}
	}
	sort.Strings(out)
	return out
}

// inGroup reports whether abs, a plain file, belongs to c's group: no
// kustomization reads it, it does not lie in a kustomization directory,
// and plainGroup places it in c's directory.
func (d *discoverer) inGroup(c *Cluster, abs string) bool {
	if d.reached[abs] || d.readAsData(abs) || d.isKust(filepath.Dir(abs)) {
		return false
	}
	for _, r := range d.names.roots {
		if _, in := manifest.Within(r.abs, abs); in {
			return plainGroup(d.layoutRoot(r), abs, d.isKust, d.wholeTree).dir == c.group.dir
		}
	}
	return false
}

// inGroupReal is inGroup for a symlink-free path, compared with the real
// paths of the roots and of the group's directory.
func (d *discoverer) inGroupReal(c *Cluster, real string) bool {
	for _, r := range d.names.roots {
		rr := d.realPath(r.abs)
		if _, in := manifest.Within(rr, real); !in {
			continue
		}
		lr := d.realPath(d.layoutRoot(r))
		if d.reachedReal(real) || d.readAsDataReal(real) || d.isKust(filepath.Dir(real)) {
			return false
		}
		return plainGroup(lr, real, d.isKust, d.wholeTree).dir == d.realPath(c.group.dir)
	}
	return false
}

// reachedReal reports whether a symlink-free path is a file some
// kustomization reads.
func (d *discoverer) reachedReal(real string) bool {
	for f := range d.reached {
		if d.realPath(f) == real {
			return true
		}
	}
	return false
}

func (d *discoverer) realPath(p string) string {
	d.realMu.Lock()
	r, ok := d.realOf[p]
	d.realMu.Unlock()
	if ok {
		return r
	}
	r = d.resolver.RealPath(p)
	d.realMu.Lock()
	d.realOf[p] = r
	d.realMu.Unlock()
	return r
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

// DropEmpty removes the discovered plain clusters that were loaded and hold
// nothing (a directory of workloads only) from Clusters and All, except
// those keep asks to keep: such a group is no cluster to lint. A tree that
// would be left without any cluster keeps its unnamed one: a tree without
// mirror objects is still a cluster, whose nodes get the template.
func (r *Result) DropEmpty(keep func(*Cluster) bool) {
	drops := func(c *Cluster) bool {
		return c.group != nil && c.Empty() && c.Name != "" && (keep == nil || !keep(c))
	}
	drop := func(cls []*Cluster) []*Cluster {
		out := cls[:0:0]
		for _, c := range cls {
			if !drops(c) {
				out = append(out, c)
			}
		}
		return out
	}
	r.Clusters = drop(r.Clusters)
	r.all = drop(r.all)
	r.updateSet()
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
