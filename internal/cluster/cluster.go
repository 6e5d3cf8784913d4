// Package cluster finds the clusters a GitOps repository describes and
// loads each one's objects: clusters declared in .mirrorlint.yaml, every
// top-level kustomization (built in-process with kustomize, its objects
// traced back to the base, overlay or patch that holds each value), and
// the files no kustomization reaches. Each cluster is linted and rendered
// on its own: an ICSP in dev and an IDMS in prod are not a mix.
//
// Finding clusters (Find) reads the kustomization files only: which
// kustomizations are top-level, which files each one reads and how the
// other files group are all known before any build, so `mirrorlint
// clusters` answers at once and a run builds only the clusters it needs
// (Result.Load), in parallel.
//
// Files no kustomization reaches are grouped by where they are, never by
// what else the tree holds (see plainGroup): each directory under a
// cluster layout directory (clusters/, overlays/, sites/, environments/,
// envs/) is one cluster with all its subdirectories, every other file
// belongs to the cluster of its top-level directory (files at the top to
// the root's, "."), so loose files of unrelated top-level directories are
// never compared (a tree with no kustomization and no layout at all is one
// cluster). A file in a kustomization
// directory that the kustomization does not list belongs to no cluster:
// kustomize does not apply it, so it is reported (not-in-kustomization, a
// warning) to the clusters that read that kustomization.
//
// Names are paths relative to the repository root the caller gives
// (Options.Root: the git top level, or the config file's directory), so
// overlays/prod-east is named the same from any working directory and
// whatever path argument selects it. A tree that forms a single cluster
// without any kustomization or layout keeps it unnamed, as a list of
// files does.
package cluster

import (
	"github.com/mirrorlint/mirrorlint/internal/build"
	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/trace"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// Settings are the cluster facts that change what the cluster does, as
// settled for the run: Version is always set (a cluster no flag or config
// gives a version runs the newest modelled release), so whoever reads
// Settings takes them as they are. Settings built by hand start from
// Defaults.
type Settings struct {
	Version render.Version
	// VersionAssumed says that no flag or config gave Version: it is the
	// newest by default (Defaults), or the release a cluster an input
	// creates takes from that input. What reads the cluster's mirror
	// inputs then reads each as the release it names (each ZTP spoke of a
	// SiteConfig its own ClusterImageSet's), as a given one never is.
	VersionAssumed bool
	ReleaseImage   string
	// FeatureSet is the cluster's feature set (config featureSet or
	// --feature-set); "" takes it from FeatureGate/cluster in the tree,
	// else Default.
	FeatureSet string
	// NoDefaultPolicy says the cluster has no default "openshift"
	// ClusterImagePolicy although its release installs one (a HyperShift
	// hosted cluster; config defaultClusterImagePolicy: false or
	// --no-default-cluster-image-policy).
	NoDefaultPolicy bool
	// SpokesApart says that the ZTP spokes of the sites and hand-written
	// AgentClusterInstalls the cluster holds are linted as clusters of
	// their own (ztp-spoke/…), made of every object of the tree each one
	// reads: how a spoke is checked (its release, which its
	// ClusterImageSet says, wherever in the tree that lies) is told there,
	// not by this cluster, which may hold the site without the set.
	SpokesApart bool
}

// Defaults are the settings of a cluster nothing says more about: the
// newest modelled release, no release image, the feature set the tree
// gives, the release's default signature policy.
func Defaults() Settings { return Settings{Version: render.Newest, VersionAssumed: true} }

// WholeTree reports whether the cluster is the whole input only because
// nothing in it names clusters: a plain tree with no kustomization and no
// cluster layout.
func (c *Cluster) WholeTree() bool {
	return c.Source == FromPlain && c.Name == ""
}

// Source says why a cluster exists.
type Source string

const (
	FromConfig        Source = "config"
	FromKustomization Source = "kustomization"
	FromPlain         Source = "plain directory"
)

// Cluster is one cluster's worth of objects, what MCO sees together:
// discovered in a tree (or made of a stream) with what it holds, its
// settings, and the way back to the files and patches its values came
// from.
type Cluster struct {
	Name   string
	Source Source
	// Reason explains the discovery in a sentence, for `mirrorlint clusters`.
	Reason string
	// Paths are what the cluster is made of: the declared paths, the
	// kustomization directory, or the plain directory.
	Paths []string
	// Inputs lists every file the cluster reads (display paths, sorted):
	// for a kustomization its file, resources and patches across bases.
	Inputs   []string
	Objects  []*manifest.Object
	Problems []manifest.Problem
	// ReleaseImage and OpenShiftVersion are the cluster's own settings
	// from the config file; empty means the global ones.
	ReleaseImage     string
	OpenShiftVersion string
	// Settings are the cluster's settings as the run resolved them (flags,
	// its config entry, the config's global values); what the rules see.
	Settings Settings
	// Stopped, when set, says why the nodes get nothing rendered from the
	// objects: a component before MCO refuses the input and stops (the
	// HyperShift NodePool controller refusing a NodePool's config). The
	// rules still read every object; no node file is written or compared.
	Stopped *Stop

	inputs  map[string]bool // absolute paths of Inputs
	dirs    []string        // absolute directories whose every file is an input
	origins map[*manifest.Object]*manifest.Object
	patches []trace.PatchRef
	res     *kustomization.Resolver

	// parts are what Load reads and builds; group is the plain group a
	// discovered plain cluster stands for (a new file belongs to it when
	// plainGroup places it there); d is the discovery that made it.
	parts  []part
	group  *group
	d      *discoverer
	loaded bool

	realMu   sync.Mutex
	real     map[string]bool // inputs, symlink-free; built on first use
	realDirs []string
}

// Loaded reports whether Load (or Discover) has read the cluster's objects.
func (c *Cluster) Loaded() bool { return c.loaded }

// Empty reports a loaded cluster with no problem and no object of a kind
// mirrorlint models: objects of other kinds (workloads kept for the rules
// about image pulls) join the cluster of their directory but make none.
func (c *Cluster) Empty() bool {
	if !c.loaded || len(c.Problems) > 0 {
		return false
	}
	for _, o := range c.Objects {
		if !o.Unmodelled {
			return false
		}
	}
	return true
}

// Stop is a component refusing a cluster's input before MCO renders it:
// Reason in the component's words and what it means for the nodes, said
// at Pos, the refused value.
type Stop struct {
	Reason string
	Pos    manifest.Position
}

// Stats is the cost of discovery, for benchmarks and -v output. Durations
// of work done in parallel are summed over the workers.
type Stats struct {
	Files          int
	Kustomizations int
	Find           time.Duration // listing the trees, reading kustomization files
	Load           time.Duration // reading and parsing files
	build.Stats                  // the kustomize builds
}

// Result is everything Discover found.
type Result struct {
	Clusters []*Cluster
	// Set is every file read directly (build outputs excluded), as the
	// loader returned it; per-cluster problems are on each Cluster.
	Set   *manifest.Set
	Stats Stats

	// Notices are one-line remarks on how the tree was grouped, for the
	// user (see notice.go): a top-level directory (or a whole tree) taken
	// as one cluster whose directories disagree with each other.
	Notices []string

	// all is every cluster found, before path arguments filtered declared
	// ones; roots are the real paths discovery looked under (nil with
	// declared clusters: the config names every cluster there is).
	all   []*Cluster
	roots []string
	d     *discoverer
}

// All is every cluster found, including declared clusters that the path
// arguments left out of Clusters.
func (r *Result) All() []*Cluster { return r.all }

// Readers returns the clusters found that read file, and whether that list
// is complete: a file outside every tree discovery looked at (a base above
// the path argument) may be read by clusters it never saw. A file lying in
// a kustomization's directory that no kustomization lists is read by the
// clusters reading that kustomization: they report it
// (not-in-kustomization). A manifest or source CR a generator reads, or a
// file a configMapGenerator reads, is read by the clusters reading the
// kustomization that names the generator. A file of a SiteConfig's
// extra-manifest directory is read by no cluster of the tree: the site's
// cluster reads it (see GeneratorDir).
func (r *Result) Readers(file string) ([]*Cluster, bool) {
	real := manifest.RealPath(file)
	complete := r.roots == nil
	for _, root := range r.roots {
		if _, in := manifest.Within(root, real); in {
			complete = true
		}
	}
	kustFile := ""
	if r.d != nil && r.d.graph != nil {
		for _, p := range []string{manifest.AbsName(file), real} {
			if dir := filepath.Dir(p); !r.d.reached[p] && r.d.isKust(dir) {
				if kf := r.d.graph.Get(dir); kf != nil && kf.Path != p {
					kustFile = kf.Path
				}
			}
		}
	}
	var via []string
	if r.d != nil {
		for _, m := range []map[string][]string{r.d.viaGenerator, r.d.viaSourceCR, r.d.asData} {
			via = append(via, m[manifest.AbsName(file)]...)
			if real != manifest.AbsName(file) {
				via = append(via, m[real]...)
			}
		}
	}
	var out []*Cluster
	for _, c := range r.all {
		if c.reads(real) || kustFile != "" && c.Includes(kustFile) || slices.ContainsFunc(via, c.Includes) {
			out = append(out, c)
		}
	}
	return out, complete
}

// Text returns the bytes of a file as discovery read it (a manifest it
// kept objects of, a patch it searched), so that what else asks about the
// files of a run (the suppression comments of the findings placed in a
// patch) does not read them again; nil when it holds none.
func (r *Result) Text(file string) []byte {
	if r.d == nil || r.d.res == nil || file == "" || manifest.IsStream(file) {
		return nil
	}
	return r.d.res.Held(manifest.AbsName(file))
}

// Read returns the objects discovery read from file (a name of Set.Files)
// and whether it has read the file at all; it reads nothing itself.
func (r *Result) Read(file string) ([]*manifest.Object, bool) {
	if r.d == nil || r.d.res == nil || file == "" || file == "-" {
		return nil, false
	}
	return r.d.res.Loaded(manifest.AbsName(file))
}

// reads is Includes for a real (symlink-free) path, which is how lint names
// files when it compares them.
func (c *Cluster) reads(real string) bool {
	if c.Includes(real) {
		return true
	}
	if c.group != nil {
		// A plain group's files are placed by their path; its real
		// directory decides for a path that reached it through links.
		return c.d.inGroupReal(c, real)
	}
	c.realMu.Lock()
	defer c.realMu.Unlock()
	if c.real == nil {
		c.real = map[string]bool{}
		realPath := manifest.RealPath
		if c.d != nil {
			realPath = c.d.realPath // shared by every cluster: a base's files once
		}
		for f := range c.inputs {
			c.real[realPath(f)] = true
		}
		for _, d := range c.dirs {
			c.realDirs = append(c.realDirs, realPath(d))
		}
	}
	if c.real[real] {
		return true
	}
	for _, d := range c.realDirs {
		if _, in := manifest.Within(d, real); in {
			return true
		}
	}
	return false
}

// Includes reports whether file (a path as the user gives it) is one of
// the cluster's inputs, or lies under one of its directories (a new file
// in a plain directory belongs to it).
func (c *Cluster) Includes(file string) bool {
	abs, err := filepath.Abs(file)
	if err != nil {
		return false
	}
	if c.inputs[abs] {
		return true
	}
	for _, d := range c.dirs {
		if abs == d || strings.HasPrefix(abs, d+string(filepath.Separator)) {
			return true
		}
	}
	return c.group != nil && c.d.inGroup(c, abs)
}

func (c *Cluster) addInput(abs string, n *namer) {
	if c.inputs == nil {
		c.inputs = map[string]bool{}
	}
	if !c.inputs[abs] {
		c.inputs[abs] = true
		c.Inputs = append(c.Inputs, n.display(abs))
	}
}

// Patches is the way back from the cluster's built values to the patches
// that wrote them (see trace.Relocation); nil when no patch was applied.
func (c *Cluster) Patches() *trace.Relocation {
	if len(c.patches) == 0 {
		return nil
	}
	return &trace.Relocation{Objects: c.Objects, Origins: c.origins, Patches: c.patches, Files: c.res}
}

// WithObjects is the cluster holding objs instead of its objects: what it
// is, its settings and its way back to its files stay (a check that
// leaves some objects out still places findings through their patches).
func (c *Cluster) WithObjects(objs []*manifest.Object) *Cluster {
	return &Cluster{Name: c.Name, Source: c.Source, Reason: c.Reason, Paths: c.Paths, Inputs: c.Inputs,
		Objects: objs, Problems: c.Problems, ReleaseImage: c.ReleaseImage, OpenShiftVersion: c.OpenShiftVersion,
		Settings: c.Settings, Stopped: c.Stopped, inputs: c.inputs, dirs: c.dirs, origins: c.origins, patches: c.patches, res: c.res,
		parts: c.parts, group: c.group, d: c.d, loaded: c.loaded}
}
