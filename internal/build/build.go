// Package build runs kustomize builds in-process (krusty), each
// kustomization once per discovery and in parallel, with fast builds of
// overlays on a shared base where they provably give the same objects
// (fastbuild.go), and reads the output back as objects positioned in the
// files they came from (package trace).
package build

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/parallel"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/trace"
)

// built is one kustomize build read back as objects.
type built struct {
	Set *manifest.Set
	// Origins holds, per output document, the origin path as kustomize
	// wrote it (relative to the built directory), "" when unknown.
	Origins []string
	// Unapplied are the patch entries left out because they patch what
	// the in-process generators make (see generated.go).
	Unapplied []unapplied
}

// build runs kustomize on kf's directory in-process over fsys, the way
// `kustomize build DIR` would (same load restrictions, no plugins, no
// network), and reads back the objects of the kinds needs has with the
// manifest loader under name. Objects of other kinds are not serialised:
// nothing reads them, and turning every object into YAML is most of the
// cost of a build. Callers hold the schema gate (see runBuild).
//
// Every file kustomize reads comes through guard (the access layer: inside
// the root, regular, bounded, no URL), which fsys wraps or is. A panic
// inside kustomize (its plugin configuration re-panics on
// `patchesJson6902: [{}]`) is this build's error, so the other clusters
// are still checked.
func build(fsys filesys.FileSystem, guard *safefs.KustomizeFS, kf *kustomization.File, kusts []*kustomization.File, name string, opts manifest.Options, needs manifest.Needs) (b *built, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("kustomize failed on this kustomization (it panicked: %v); check its patch and generator entries", r)
		}
		if err != nil {
			err = guard.Explain(err)
		}
	}()
	var left []unapplied
	for {
		b, err = buildOnce(stripPlugins(fsys, guard, kusts, droppedByFile(left)), guard, kf, name, opts, needs)
		if err == nil {
			b.Unapplied = left
			return b, nil
		}
		if len(kusts) == 0 || len(left) >= maxUnapplied {
			return nil, err
		}
		u, ok := generatorPatch(err, fsys, kusts)
		if !ok || slices.ContainsFunc(left, func(l unapplied) bool { return l.k == u.k && l.e.Line == u.e.Line && l.e.Column == u.e.Column }) {
			return nil, err
		}
		left = append(left, u)
	}
}

// buildOnce is one kustomize run of build, over fsys as given, or the
// stored output of the same build in an earlier run (buildcache.go).
func buildOnce(fsys filesys.FileSystem, guard *safefs.KustomizeFS, kf *kustomization.File, name string, opts manifest.Options, needs manifest.Needs) (*built, error) {
	fs := originFS(fsys, kf.Path)
	key := buildKey(fs, kf.Dir, name, opts, needs)
	if out, origins, calls, ok := fromCache(opts.Cache, fs, key); ok {
		if err := guard.Expired(); err != nil {
			logBuild(opts.Cache, key, nil, false)
			return nil, err
		}
		logBuild(opts.Cache, key, callPaths(calls), true)
		return loadBuilt(out, origins, name, opts)
	}
	rec := &recordingFS{FileSystem: fs}
	m, err := kustomizer().Run(rec, kf.Dir)
	if err == nil {
		if err = guard.Expired(); err != nil {
			// Out of time: an outcome of the machine's speed.
			logBuild(opts.Cache, key, nil, false)
			return nil, err
		}
	}
	var out []byte
	var origins []string
	if err == nil {
		out, origins, err = printBuilt(m, opts, needs)
	}
	paths, known := rec.touched()
	logBuild(opts.Cache, key, paths, known)
	if err != nil {
		return nil, err
	}
	toCache(opts.Cache, key, rec, out, origins)
	return loadBuilt(out, origins, name, opts)
}

// originFS is fsys with the top kustomization at path asking kustomize to
// record each object's origin, so that a built value is traced to its
// file; fsys itself when the file cannot be read or already asks.
func originFS(fsys filesys.FileSystem, path string) filesys.FileSystem {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fsys
	}
	data, err := fsys.ReadFile(real)
	if err != nil {
		return fsys
	}
	if patched := trace.WithOriginAnnotations(data); patched != nil {
		return trace.OriginFS{FileSystem: fsys, Path: real, Data: patched}
	}
	return fsys
}

// kustomizer is what `kustomize build` runs by default: builtin plugins
// only, files from the kustomization's own tree and its bases.
func kustomizer() *krusty.Kustomizer {
	o := krusty.MakeDefaultOptions()
	o.LoadRestrictions = types.LoadRestrictionsRootOnly
	return krusty.MakeKustomizer(o)
}

// printBuilt serialises the needed objects of a build, with the origin
// path of each as kustomize wrote it. Each object is written as the JSON
// kustomize turns it into before printing YAML (Resource.AsYAML is that
// JSON converted; nodeJSON makes the same JSON): the values are the ones
// `kustomize build` prints, without the cost of the conversion.
func printBuilt(m resmap.ResMap, opts manifest.Options, needs manifest.Needs) ([]byte, []string, error) {
	var out bytes.Buffer
	var origins []string
	for _, r := range m.Resources() {
		if !needs.Has(r.GetKind(), opts.Unmodelled) {
			continue
		}
		path := ""
		if or, err := r.GetOrigin(); err == nil && or != nil && or.Repo == "" {
			path = or.Path
		}
		if err := r.SetOrigin(nil); err != nil {
			return nil, nil, fmt.Errorf("removing origin annotations: %w", err)
		}
		text, err := nodeJSON(r.YNode())
		if err != nil {
			return nil, nil, err
		}
		if len(origins) > 0 {
			out.WriteString("---\n")
		}
		out.Write(text)
		out.WriteByte('\n')
		origins = append(origins, path)
	}
	return out.Bytes(), origins, nil
}

// loadBuilt reads a build's printed output back with the manifest loader.
func loadBuilt(out []byte, origins []string, name string, opts manifest.Options) (*built, error) {
	set, err := manifest.LoadReader(name, bytes.NewReader(out), opts)
	return &built{Set: set, Origins: origins}, err
}

// schemaGate makes parallel builds safe. kustomize keeps its OpenAPI
// schema in process-wide variables (sigs.k8s.io/kustomize/kyaml/openapi):
// the first build that needs the schema parses it while other builds read
// its maps without a lock, and a kustomization with an `openapi:` field
// replaces it for the whole process. So the default schema is parsed once
// before any build runs; builds of ordinary closures share the gate and
// run together; a closure with an `openapi:` field takes it alone and puts
// the default schema back afterwards, as a fresh `kustomize build`
// process would find it.
var schemaGate struct {
	sync.RWMutex
	ready bool
}

// runBuild runs fn under the schema gate; exclusive for a closure that
// sets its own schema. Ordinary builds only ever take the gate shared once
// the schema is parsed: taking it exclusively to ask whether it is would
// wait for every build running, and one build would start only when the
// others had finished.
func runBuild(custom bool, fn func()) {
	if custom {
		schemaGate.Lock()
		defer schemaGate.Unlock()
		parseSchema()
		defer resetSchema()
		fn()
		return
	}
	schemaGate.RLock()
	if !schemaGate.ready {
		schemaGate.RUnlock()
		schemaGate.Lock()
		parseSchema()
		schemaGate.Unlock()
		schemaGate.RLock()
	}
	defer schemaGate.RUnlock()
	fn()
}

// parseSchema parses the default schema the first time; the caller holds
// the gate exclusively.
func parseSchema() {
	if !schemaGate.ready {
		resetSchema()
		schemaGate.ready = true
	}
}

// Result is a kustomization's build, traced to its files.
type Result struct {
	Objects  []*manifest.Object
	Origins  map[*manifest.Object]*manifest.Object
	Problems []manifest.Problem
	// Notes say what the build left out (a patch of what the policy
	// generators make): notices of the kustomization, reported whatever
	// else its inputs hold.
	Notes []manifest.Problem
	Err   error
}

type buildEntry struct {
	once sync.Once
	res  *Result
	// early is the kustomize run Start began for a build certain to be
	// full, nil when it began none.
	early *earlyBuild
}

// Cache builds each kustomization directory once per discovery.
type Cache struct {
	d     *env
	mu    sync.Mutex
	dirs  map[string]*buildEntry
	bases map[string]*baseEntry // standalone builds vouching for fast builds
	// filterCache holds the filtered resource files of fast builds, by
	// the kinds kept; shared counts the overlays of each base a run builds.
	filterCache map[string]*sync.Map
	shared      map[string]int
	// fastBases holds fastBase's answer for each directory asked: Start,
	// Run and the build itself ask it of the same directory, and it reads
	// the overlay's resource files.
	fastBases map[string]fastBaseAnswer
}

// fastBaseAnswer is what env.fastBase says of one directory.
type fastBaseAnswer struct {
	base string
	own  manifest.Needs
	ok   bool
}

// fastBase is env.fastBase of dir, asked once per cache.
func (bc *Cache) fastBase(dir string) (string, manifest.Needs, bool) {
	bc.mu.Lock()
	a, seen := bc.fastBases[dir]
	bc.mu.Unlock()
	if !seen {
		a.base, a.own, a.ok = bc.d.fastBase(dir, bc.d.needs())
		bc.mu.Lock()
		bc.fastBases[dir] = a
		bc.mu.Unlock()
	}
	return a.base, a.own, a.ok
}

// New returns a Cache building with c.
func New(c Config) *Cache {
	if c.Stats == nil {
		c.Stats = &Stats{}
	}
	d := &env{opts: c, graph: c.Graph, res: c.Files, stats: c.Stats}
	return &Cache{d: d, dirs: map[string]*buildEntry{}, bases: map[string]*baseEntry{}, fastBases: map[string]fastBaseAnswer{}}
}

func (bc *Cache) entry(dir string) *buildEntry {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	e := bc.dirs[dir]
	if e == nil {
		e = &buildEntry{}
		bc.dirs[dir] = e
	}
	return e
}

// Get returns the build of dir, building it now if run did not.
func (bc *Cache) Get(dir string) *Result {
	e := bc.entry(dir)
	e.once.Do(func() { e.res = bc.build(dir) })
	return e.res
}

// Run builds dirs on up to w workers (finishing those Start began).
func (bc *Cache) Run(dirs []string, w int) {
	bc.count(dirs)
	parallel.Within(w, len(dirs), func(i int) { bc.Get(dirs[i]) })
}

// count counts the overlays of dirs that share a base: a fast build pays
// off only when the base's own build vouches for at least two of them.
// Start and Run of the same dirs count alike.
func (bc *Cache) count(dirs []string) {
	if bc.d.opts.NoFast {
		return
	}
	count := map[string]int{}
	for _, dir := range dirs {
		if m, _, ok := bc.fastBase(dir); ok {
			count[m]++
		}
	}
	bc.mu.Lock()
	bc.shared = count
	bc.mu.Unlock()
}

// full is the kustomize run of dir's full build.
func (bc *Cache) full(dir string) (b *built, err error) {
	d := bc.d
	runBuild(d.customSchema(dir), func() {
		g := d.guard()
		b, err = build(g, g, d.graph.Get(dir), d.closureKusts(dir), "kustomize build "+d.res.Display(dir), d.opts.Load, d.needs())
	})
	return b, err
}

// build builds one kustomization: on a filtered file system when a fast
// build is provably the same (see fastbuild.go), else in full.
func (bc *Cache) build(dir string) *Result {
	d := bc.d
	kf := d.graph.Get(dir)
	name := "kustomize build " + d.res.Display(dir)
	var b *built
	var err error
	start := time.Now()
	var r *Result
	if plan, ok := bc.fastFS(dir); ok {
		runBuild(false, func() { b, err = build(plan.fs, plan.guard, kf, nil, name, d.opts.Load, plan.own) })
		if err == nil {
			objs, origins := trace.Remap(b.Set, b.Origins, dir, d.res)
			if merged, ok := mergeBase(plan.base.res, objs, origins, b.Set.Problems, plan.own); ok {
				r = merged
			}
		}
	}
	fast := r != nil
	e := bc.entry(dir)
	bc.mu.Lock()
	early := e.early
	bc.mu.Unlock()
	switch {
	case fast:
	case early != nil:
		<-early.done
		b, err = early.b, early.err
	default:
		b, err = bc.full(dir)
	}
	elapsed := time.Since(start)
	if !fast && early != nil {
		elapsed = early.elapsed // the kustomize run, not the wait for it
	}
	d.statsMu.Lock()
	d.stats.Builds++
	if fast {
		d.stats.FastBuilds++
	}
	d.stats.Build += elapsed
	d.statsMu.Unlock()
	if fast {
		return r
	}
	if err != nil {
		return &Result{Err: err}
	}
	start = time.Now()
	r = &Result{}
	r.Objects, r.Origins = trace.Remap(b.Set, b.Origins, dir, d.res)
	r.Problems = b.Set.Problems
	for _, u := range b.Unapplied {
		r.Notes = append(r.Notes, d.unappliedProblem(u))
	}
	d.statsMu.Lock()
	d.stats.Remap += time.Since(start)
	d.statsMu.Unlock()
	return r
}

// guard is a fresh access-layer filesystem for one build, with its time
// limit.
func (d *env) guard() *safefs.KustomizeFS {
	g := safefs.NewKustomizeFS(d.opts.Load.Access)
	limit := d.opts.BuildTimeout
	if limit == 0 {
		limit = DefaultBuildTimeout
	}
	g.Deadline = time.Now().Add(limit)
	return g
}

// needs is what the run reads: Options.Needs, or every kind the loader
// keeps.
func (d *env) needs() manifest.Needs {
	if d.opts.Needs != nil {
		return *d.opts.Needs
	}
	return manifest.NeedAll()
}

// customSchema reports whether a kustomization of dir's closure sets its
// own OpenAPI schema (the `openapi:` field).
func (d *env) customSchema(dir string) bool {
	for _, k := range d.closureKusts(dir) {
		if k.Fields["openapi"] {
			return true
		}
	}
	return false
}
