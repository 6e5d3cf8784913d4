// Package project opens a manifests tree the way every command needs it:
// the config file, the loaded objects, and the clusters they form, each
// with its own settings. Commands stay wiring; this is the shared middle.
package project

import (
	"github.com/mirrorlint/mirrorlint/internal/safefs"

	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/extramanifests"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/shard"
	"github.com/mirrorlint/mirrorlint/internal/sites"
	"github.com/mirrorlint/mirrorlint/render"
)

// Options are the command-line settings that shape loading.
type Options struct {
	Paths []string
	// ConfigPath is --config; empty means look up .mirrorlint.yaml from the
	// working directory upward; "none" disables the lookup.
	ConfigPath string
	// Config, when set, is the config already loaded; ConfigPath is then
	// not read.
	Config           *config.Config
	ReleaseImage     string
	OpenShiftVersion string
	MaxFileSize      int64
	// Cluster selects one cluster by name when the tree has several: its
	// full name, or the last elements of only one cluster's (sno1 for
	// ztp-spoke/sno1; Project.Selected is the full name).
	Cluster string
	// Shard keeps a stable part of the clusters (`--shard K/N`, for CI
	// matrices); the zero value keeps them all.
	Shard shard.Shard
	// Stream, when set, is read in place of Paths: one stream of manifests
	// (standard input, the KRM function's items, a reader the library is
	// given) whose objects are one cluster and whose file is
	// manifest.StreamName. The command line turns a lone "-" into this.
	Stream io.Reader
	// Root is the repository's root (the git top level), which cluster
	// names and layouts are relative to; a config file found or given
	// makes its directory the root instead. Empty: each path argument is
	// its own root.
	Root string
	// Repository is the directory a config found in the tree may not
	// reach out of (the git top level); empty: the working directory.
	Repository string
	// Only, when set, are the files a run reports on (a pre-commit file
	// list, as absolute real paths): only the clusters that read one of
	// them are loaded and built, and with Needs set, the other files are
	// parsed only when they may hold a needed object (manifest.Options
	// Prefilter).
	Only []string
	// Absent are files whose content could not be had (their object is
	// missing from the git clone a base revision was read from), each with
	// the message saying so: a cluster reading one does not load, rather
	// than holding the file as empty.
	Absent map[string]string
	// Needs are the kinds the run's rules, policies and renderer read
	// (checks.Needs); nil: every kind the loader keeps.
	Needs *manifest.Needs
	// Narrowed, when set with Only and Needs, is what is needed of the
	// plain files outside Only that no kustomization reads: Needs without
	// the kinds the checks need only from the files reported on
	// (check.Registry.Judged).
	Narrowed *manifest.Needs
	// Select, when set, loads only the clusters with these names (those
	// another run loaded: the other side of a comparison); names the tree
	// does not hold are ignored.
	Select []string
	// Static finds the clusters without building any: kustomization
	// clusters then hold their objects as written, unpatched (for
	// `mirrorlint clusters`).
	Static bool
	// Files, when set, are the only files directory walks read (see
	// manifest.Options.Files): what git holds, so that a scratch or
	// ignored file is not part of the tree. The caller asks git.
	Files *manifest.FileSet
	// Access, when set, confines every read of the run (walks, builds,
	// suppression comments) to the repository and the paths the command
	// line names (see safefs.Root); nil reads what the paths reach.
	Access *safefs.Root
	// Unmodelled says which objects of kinds other than the mirror kinds
	// are kept: lint keeps what its rules and policies read.
	Unmodelled manifest.Unmodelled
	// FeatureSet is --feature-set; NoDefaultPolicy is
	// --no-default-cluster-image-policy.
	FeatureSet      string
	NoDefaultPolicy bool
	// Cache and Blobs are the loader's per-file result cache and the blob
	// ids git gives for unchanged files (manifest.Options); nil: every
	// file is read and parsed.
	Cache manifest.Cache
	Blobs func(osPath string) (blob string, ok bool)
}

// Project is an opened tree.
type Project struct {
	Config   *config.Config
	Set      *manifest.Set
	Clusters []*cluster.Cluster
	// Discovery is how the clusters were found (see `mirrorlint clusters`).
	Discovery *cluster.Result
	// Selected is the full name of the cluster Options.Cluster names (a
	// bare site name resolved: sno1 is ztp-spoke/sno1), "" without one.
	Selected string

	// created holds what made each cluster the tree's mirror inputs create.
	created map[*cluster.Cluster]*inputs.Cluster
	// sites are the tree's ZTP sites (and hand-written spokes with their
	// ManagedClusters: inputs.Result.Sites); spare the clusters they
	// create that the run did not select (a pre-commit run may add those that get a
	// changed policy). fleets, unplaced and absorbed are the fleet view
	// (fleet.go): the sites joined with their policies, the policies no
	// site gets, and those linted on the sites instead of on their own.
	sites    []*sites.Site
	spare    []*cluster.Cluster
	fleets   map[*cluster.Cluster]*SiteFleet
	unplaced map[*cluster.Cluster]string
	absorbed map[*cluster.Cluster]bool
	// unlabelled are the spokes whose labels the tree does not give
	// (unlabelled.go).
	unlabelled []unlabelledSpoke
	// extra are the extra manifests each site's spoke gets (extra.go).
	extra map[*inputs.Cluster]*extramanifests.Set
	// files and load are what the tree's inputs are read from.
	files []string
	load  manifest.Options
}

// UsageError marks errors that are the caller's to fix (exit code 2).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usage(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// LoadConfig finds and reads the config file per opts.
func LoadConfig(opts Options) (*config.Config, error) {
	if opts.Config != nil {
		return opts.Config, nil
	}
	path := opts.ConfigPath
	switch path {
	case "none":
		return &config.Config{}, nil
	case "":
		wd, _ := os.Getwd()
		if path = config.Find(wd); path == "" {
			return &config.Config{}, nil
		}
		// Messages name the file the way the user would type it from
		// the working directory: ../.mirrorlint.yaml for one found in a
		// parent, never by the machine's absolute path.
		if rel, err := filepath.Rel(wd, path); err == nil {
			path = rel
		}
	}
	c, err := config.Load(path)
	if err != nil {
		return nil, &UsageError{Err: fmt.Errorf("config: %w", err)}
	}
	if opts.ConfigPath == "" {
		// Found in the tree, so written by whoever can commit to it (a
		// fork's pull request): every command that reads the config
		// gets it stripped of what would widen the run, here and only
		// here. Callers report c.Refused.
		repo := opts.Repository
		if repo == "" {
			repo, _ = os.Getwd()
		}
		c.Refused = c.Distrust(repo, policy.DefaultTimeout, policy.DefaultMemory>>20)
	}
	return c, nil
}

// ResolveSettings merges flags over the config file; flags win.
func ResolveSettings(opts Options, cfg *config.Config) (cluster.Settings, error) {
	s := cluster.Defaults()
	s.ReleaseImage = cfg.ReleaseImage
	if opts.ReleaseImage != "" {
		s.ReleaseImage = opts.ReleaseImage
	}
	v, from := cfg.OpenShiftVersion, cfg.Where("openshiftVersion")
	if opts.OpenShiftVersion != "" {
		v, from = opts.OpenShiftVersion, "--openshift-version"
	}
	if v != "" {
		pv, err := render.ParseVersion(v)
		if err != nil {
			return s, &UsageError{Err: fmt.Errorf("%s: %w", from, err)}
		}
		s.Version, s.VersionAssumed = pv, false
	}
	fs, from := cfg.FeatureSet, cfg.Where("featureSet")
	if opts.FeatureSet != "" {
		fs, from = opts.FeatureSet, "--feature-set"
	}
	switch fs {
	case "", check.FeatureSetDefault, check.FeatureSetTechPreview, check.FeatureSetDevPreview, check.FeatureSetCustom:
		s.FeatureSet = fs
	default:
		return s, &UsageError{Err: fmt.Errorf("%s: unknown feature set %q: want %s, %s, %s or %s", from, fs,
			check.FeatureSetDefault, check.FeatureSetTechPreview, check.FeatureSetDevPreview, check.FeatureSetCustom)}
	}
	s.NoDefaultPolicy = opts.NoDefaultPolicy || (cfg.DefaultClusterImagePolicy != nil && !*cfg.DefaultClusterImagePolicy)
	return s, nil
}

// Open loads the config and the clusters: those declared in the config,
// else one per top-level kustomization plus the groups of the files no
// kustomization reaches (see package cluster). Clusters are found first
// from the kustomization files and the listing alone; then only those the
// run needs are read and built (--cluster, Select, or the clusters reading
// Only's files), all of them otherwise.
//
// Open is where a run's settings are settled, once: the config file is
// read (LoadConfig, unless Options.Config holds it already), the flags are
// laid over its global values (ResolveSettings, with the defaults: the
// newest release), and every cluster gets its cluster.Settings from the
// flags, then its own entry in the config, then those global values (a
// cluster an input creates: the global values and the release the input
// names). The renderer, the rules and the pipeline read cl.Settings and
// Project.Config as settled here and look nothing up again.
func Open(opts Options) (*Project, error) {
	defer safefs.HoldWorkingDir()()
	cfg, err := LoadConfig(opts)
	if err != nil {
		return nil, err
	}
	// The global settings are checked before anything is read, so a bad
	// flag or config value fails fast; each cluster resolves its own below.
	global, err := ResolveSettings(opts, cfg)
	if err != nil {
		return nil, err
	}
	res, err := cluster.Find(cluster.Options{
		Paths:  opts.Paths,
		Stream: opts.Stream,
		Root:   root(opts, cfg),
		Config: cfg,
		Load:   loadOptions(opts, cfg),
		Needs:  opts.Needs,
	})
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	if opts.Cluster, err = resolveCluster(res, opts, cfg); err != nil {
		return nil, err
	}
	if err := load(res, opts); err != nil {
		return nil, err
	}
	p := &Project{Config: cfg, Set: res.Set, Discovery: res, Selected: opts.Cluster, created: map[*cluster.Cluster]*inputs.Cluster{},
		fleets: map[*cluster.Cluster]*SiteFleet{}, unplaced: map[*cluster.Cluster]string{}, absorbed: map[*cluster.Cluster]bool{},
		extra: map[*inputs.Cluster]*extramanifests.Set{}}
	for _, cl := range res.Clusters {
		s, err := clusterSettings(opts, cfg, cl)
		if err != nil {
			return nil, err
		}
		cl.Settings = s
		p.Clusters = append(p.Clusters, cl)
	}
	if err := p.addCreated(opts, cfg, global, res); err != nil {
		return nil, err
	}
	p.fleet(opts, res)
	if !opts.Shard.Whole() {
		// The shard was chosen before loading; the clusters of the
		// policies a loaded cluster holds are placed by their own names.
		var keep []*cluster.Cluster
		for _, cl := range p.Clusters {
			if opts.Shard.Has(cl.Name) {
				keep = append(keep, cl)
			}
		}
		p.Clusters = keep
	}
	if len(res.Clusters) > 1 || opts.Cluster != "" || opts.Only != nil || !opts.Shard.Whole() {
		// Set is what the selected clusters read, so a broken cluster does
		// not stop commands working on another one.
		p.Set = p.unionSet()
	}
	return p, nil
}

// clusterSettings resolves one cluster's settings: a flag wins, then the
// cluster's own entry in the config, then the config's global value.
func clusterSettings(opts Options, cfg *config.Config, d *cluster.Cluster) (cluster.Settings, error) {
	c := *cfg
	if d.ReleaseImage != "" {
		c.ReleaseImage = d.ReleaseImage
	}
	if d.OpenShiftVersion != "" {
		c.OpenShiftVersion = d.OpenShiftVersion
	}
	// The signature policy settings of a declared cluster are read from
	// its config entry by name.
	for _, cc := range cfg.Clusters {
		if d.Name == "" || cc.Name != d.Name {
			continue
		}
		if cc.FeatureSet != "" {
			c.FeatureSet = cc.FeatureSet
		}
		if cc.DefaultClusterImagePolicy != nil {
			c.DefaultClusterImagePolicy = cc.DefaultClusterImagePolicy
		}
	}
	s, err := ResolveSettings(opts, &c)
	if err != nil && d.Name != "" {
		return s, usage("cluster %s: %v", d.Name, err)
	}
	return s, err
}

// ClustersIncluding returns the clusters that read one of files (paths as
// the user gives them, e.g. a pre-commit file list): a changed base selects
// every overlay built from it, a new file in a plain directory selects
// that directory's cluster.
func (p *Project) ClustersIncluding(files []string) []*cluster.Cluster {
	if p.Discovery == nil {
		return p.Clusters
	}
	want := map[*cluster.Cluster]bool{}
	for _, f := range files {
		readers, _ := p.Discovery.Readers(f)
		for _, d := range readers {
			want[d] = true
		}
	}
	created := p.selection(Options{Only: realPaths(files)})
	var out []*cluster.Cluster
	for _, cl := range p.Clusters {
		if want[cl] || p.created[cl] != nil && created("", p.created[cl]) || p.getsAny(cl, want) {
			out = append(out, cl)
		}
	}
	return out
}

// getsAny reports whether cl is a site of the fleet that gets one of the
// policies of clusters.
func (p *Project) getsAny(cl *cluster.Cluster, clusters map[*cluster.Cluster]bool) bool {
	if f := p.fleets[cl]; f != nil {
		for _, g := range f.Grants {
			if clusters[g.Cluster] {
				return true
			}
		}
	}
	return false
}

// realPaths are files as absolute paths without links, as Options.Only
// holds them.
func realPaths(files []string) []string {
	var out []string
	for _, f := range files {
		out = append(out, manifest.RealPath(manifest.AbsName(f)))
	}
	return out
}

// Narrow keeps only the clusters that read one of files: a pre-commit run
// lints what the commit can affect (a base change lints all its overlays)
// instead of every cluster of the repository.
func (p *Project) Narrow(files []string) {
	p.Clusters = p.ClustersIncluding(files)
}

// AllReadersLinted reports whether every cluster that reads file was
// selected (see check.Engine.AllReadersLinted): false when --cluster left
// one out, or when the file lies outside the trees given (a base above the
// path argument), where clusters never discovered may read it. "" asks
// about the config file's ignore entries, which concern the whole tree:
// every cluster must be selected and the trees must hold the config file.
func (p *Project) AllReadersLinted(file string) bool {
	if p.Discovery == nil || manifest.IsStream(file) {
		return true
	}
	selected := map[*cluster.Cluster]bool{}
	for _, cl := range p.Clusters {
		selected[cl] = true
	}
	for cl := range p.absorbed {
		// Linted on the sites that get it.
		selected[cl] = true
	}
	if file != "" && p.extraUnlinted(file) {
		return false // an extra manifest of a site not linted
	}
	if file == "" {
		if len(selected) < len(p.Discovery.All()) {
			return false
		}
		if p.Config == nil || p.Config.Path == "" {
			return true
		}
		_, complete := p.Discovery.Readers(p.Config.Path)
		return complete
	}
	readers, complete := p.Discovery.Readers(file)
	if !complete {
		return false
	}
	for _, d := range readers {
		if !selected[d] {
			return false
		}
	}
	return true
}

// Relocate moves findings on values a kustomize patch set to that patch
// (objects are already positioned in the base or overlay file that defines
// them). Call it on each cluster's findings before merging them.
func (p *Project) Relocate(cl *cluster.Cluster, fs []check.Finding) {
	if r := cl.Patches(); r != nil {
		check.Move(fs, r.Place)
	}
}

// Access is the access root every read of the run goes through (nil when
// reads are not confined).
func (p *Project) Access() *safefs.Root { return p.load.Access }

// Source returns the bytes of file for the inline suppression comments
// (check.Engine.Source): as the run read them when discovery holds them
// (cluster.Result.Text), else from disk.
func (p *Project) Source(file string) ([]byte, error) {
	if p.Discovery != nil {
		if t := p.Discovery.Text(file); t != nil {
			return t, nil
		}
	}
	return safefs.ReadRegular(file)
}

func (p *Project) unionSet() *manifest.Set {
	set := &manifest.Set{}
	seenObj := map[*manifest.Object]bool{}
	seenProb := map[string]bool{}
	seenFile := map[string]bool{}
	for _, cl := range p.Clusters {
		for _, f := range cl.Inputs {
			if !seenFile[f] {
				seenFile[f] = true
				set.Files = append(set.Files, f)
			}
		}
		for _, o := range cl.Objects {
			if !seenObj[o] {
				seenObj[o] = true
				set.Objects = append(set.Objects, o)
			}
		}
		for _, pr := range cl.Problems {
			if k := pr.String(); !seenProb[k] {
				seenProb[k] = true
				set.Problems = append(set.Problems, pr)
			}
		}
	}
	return set
}
