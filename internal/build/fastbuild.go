package build

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/openapi"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/trace"
)

// Fast builds: a fleet repository is hundreds of overlays on one base, and
// kustomize reads and transforms the whole base again for every overlay,
// although the run reads only a few kinds of objects. A fast build is the
// same kustomize build (krusty, same options) on a file system where the
// base's resource files hold only the documents that may be of a needed
// kind (manifest.Needs.MayHold): about the cost of building the mirror
// objects alone. It is used only when its result is provably the full
// build's, restricted to the needed kinds.
//
// The overlay O qualifies when:
//
//	(1) its kustomization writes only apiVersion, kind (not Component),
//	    resources/bases, patches, patchesJson6902, patchesStrategicMerge
//	    and buildMetadata, and no patch entry has options;
//	(2) its resources are one kustomization directory M (its base) and
//	    files whose every document is of a needed kind that takes no part
//	    in name references (nameRefKinds);
//	(3) every patch of O targets a needed kind: target.kind, or for a
//	    patch without a target, the kind of each of its documents;
//	(4) no kustomization of the closure writes configurations, crds,
//	    openapi or helm fields (they change the transformer configuration
//	    of the whole build, or the process-wide schema);
//	(5) no needed kind takes part in kustomize's default name references
//	    (nameRefKinds: as referrer or referral), the only transformation
//	    that writes into one object what another one holds without failing
//	    when that other one is absent — unless the loader keeps only the
//	    identity and image fields of objects of that kind (the
//	    image-pulling kinds under manifest.UnmodelledImages), which no name
//	    reference writes, or ConfigMap, only ever a referral, whose own
//	    content no name reference writes; and the loader does not keep
//	    every kind whole (then nothing would be left out);
//	(6) M builds on its own (`kustomize build M` succeeds; once per M);
//	(7) the fast build succeeds;
//	(8) no kustomization of the closure writes sortOptions, and their
//	    buildMetadata asks for nothing but originAnnotations (those only
//	    change what the top-level kustomization does).
//
// Why the needed objects are then the same: kustomize builds M as a
// sub-target that knows nothing of O (same loader restrictions, rooted at
// M), and its transformations act on each resource alone, except those
// that read another resource: replacements, vars and generators that merge
// into an existing object fail when what they read is absent, so (7)
// rules them out, and name references are ruled out by (5). Filtering
// keeps each kept document byte for byte and in order, and keeps the
// number of documents of a file above one when it was (kustomize unwraps a
// List only in a single-document file). Documents left out are of kinds
// nothing needs; what the full build could fail on because of them (a
// malformed document, two objects with one id, a transformation that fails
// on one of them) lies inside M, which (6) builds in full. O adds only
// documents of needed kinds (2), which no left-out document can collide
// with (ids include the kind), and patches that touch only needed objects
// (3). The top-level steps (name references, vars, local-config removal,
// ordering) then treat the needed objects alike in both builds; ordering
// is a total order, so the needed objects keep their relative order.
//
// The fast build keeps only the kinds O writes to: those its patches
// target and those of its own documents (O's kinds, mirror kinds in a
// fleet). Objects of the other needed kinds (the base's workloads, kept
// for the rules about image pulls) are taken from M's own build, built
// once and shared by every overlay: O changes nothing of them (its patches
// target other kinds; its top-level steps are the same as M's on its own,
// by (5) and (8): name references write no field the loader keeps of such
// an object, and without sortOptions both keep the order of accumulation).
// The two lists are merged in that order, each of O's objects matched to
// the base object it replaces by kind and name; any mismatch (a patch
// deleting an object) falls back to the full build.
//
// fastbuild_test.go checks the result against full builds, and that
// nameRefKinds matches the kustomize module in go.mod.

// nameRefKinds are the kinds in kustomize's default name-reference
// configuration (api/internal/konfig/builtinpluginconsts/namereference.go
// at the version in go.mod), as referral or referrer.
var nameRefKinds = strings.Fields(`APIService ClusterRole ClusterRoleBinding ConfigMap CronJob DaemonSet
Deployment HorizontalPodAutoscaler Ingress IngressClass Job MutatingWebhookConfiguration Node
PersistentVolume PersistentVolumeClaim Pod PodTemplate PriorityClass ReplicaSet ReplicationController
Role RoleBinding Secret Service ServiceAccount StatefulSet StorageClass ValidatingAdmissionPolicy
ValidatingAdmissionPolicyBinding ValidatingWebhookConfiguration`)

// imageKinds are manifest.ImageKinds, listed once.
var imageKinds = manifest.ImageKinds()

// fastTopFields are the fields condition (1) allows in the overlay.
var fastTopFields = map[string]bool{"apiVersion": true, "kind": true, "resources": true, "bases": true,
	"patches": true, "patchesJson6902": true, "patchesStrategicMerge": true, "buildMetadata": true}

// configMapGenerators are the fields through which a kustomization
// generates ConfigMaps (plugins among them).
var configMapGenerators = []string{"configMapGenerator", "generators", "generatorOptions"}

// generatesConfigMaps says whether a kustomization of dir's closure may
// generate a ConfigMap.
func (d *env) generatesConfigMaps(dir string) bool {
	for _, k := range d.closureKusts(dir) {
		for _, f := range configMapGenerators {
			if k.Fields[f] {
				return true
			}
		}
	}
	return false
}

// closureFields are the fields condition (4) forbids anywhere.
var closureFields = []string{"configurations", "crds", "openapi", "helmCharts", "helmGlobals", "helmChartInflationGenerator"}

type baseEntry struct {
	once sync.Once
	ok   bool
	res  *Result // M's needed objects, traced to their files
}

// fastPlan is how to build an overlay fast: on fs, keeping only O's kinds
// (own), the other needed objects coming from the base's build.
type fastPlan struct {
	fs    filesys.FileSystem
	guard *safefs.KustomizeFS // what fs reads through
	own   manifest.Needs
	base  *baseEntry
}

// fastFS returns the plan of a fast build of dir, and whether dir
// qualifies (conditions 1–6 and 8).
func (bc *Cache) fastFS(dir string) (*fastPlan, bool) {
	d := bc.d
	m, own, ok := bc.fastCandidate(dir)
	if !ok {
		return nil, false
	}
	base := bc.baseBuild(m)
	if !base.ok {
		return nil, false
	}
	filter := map[string]bool{}
	kusts := map[string]*kustomization.File{}
	for _, k := range d.closureKusts(m) {
		kusts[k.Path] = k
	}
	for _, f := range kustomization.ResourceFiles(d.closureKusts(m)) {
		filter[f] = true
	}
	guard := d.guard()
	fs := &filteredFS{FileSystem: guard, filter: filter, kusts: kusts, needs: own, u: d.opts.Load.Unmodelled, cache: bc.filtered(ownKey(own))}
	return &fastPlan{fs: fs, guard: guard, own: own, base: base}, true
}

// ownKey names a set of kinds, to share filtered files between overlays
// writing to the same kinds.
func ownKey(n manifest.Needs) string { return strings.Join(n.Kinds(), ",") }

// fastBase checks conditions (1)–(5) and (8) for the overlay in dir and
// returns its base directory M and O's kinds (what its patches target and
// its own documents are).
func (d *env) fastBase(dir string, needs manifest.Needs) (string, manifest.Needs, bool) {
	no := func() (string, manifest.Needs, bool) { return "", manifest.Needs{}, false }
	var own []string
	u := d.opts.Load.Unmodelled
	if u == manifest.UnmodelledAll {
		return no()
	}
	for _, k := range nameRefKinds {
		// ConfigMaps are only referrals (renamed in place, referenced by
		// others): no name reference writes into what the loader keeps of
		// them but their own name. Keeping no unmodelled kind, the loader
		// keeps only the platform's (openshift-*), rarely generated; with
		// the input kinds kept whole (UnmodelledImages) every ConfigMap
		// is, generated ones too, which a fast build places in the base's
		// kustomization rather than the overlay's: so a closure that
		// generates ConfigMaps is built in full.
		if k == manifest.KindConfigMap && (u == manifest.UnmodelledNone || !d.generatesConfigMaps(dir)) {
			continue
		}
		if needs.Has(k, u) && !(u == manifest.UnmodelledImages && slices.Contains(imageKinds, k)) {
			return no()
		}
	}
	kf := d.graph.Get(dir)
	if kf == nil || kf.Err != nil || len(kf.Options) > 0 {
		return no()
	}
	for f := range kf.Fields {
		if !fastTopFields[f] {
			return no()
		}
	}
	base := ""
	for _, r := range kf.Local() {
		switch r.Field {
		case "resources", "bases":
			if r.IsDir {
				if base != "" || d.graph.Get(r.Abs) == nil {
					return no()
				}
				base = r.Abs
				continue
			}
			kinds, ok := d.allNeeded(r.Abs, needs, u)
			if !ok {
				return no()
			}
			own = append(own, kinds...)
		case "patches", "patchesJson6902", "patchesStrategicMerge":
		default:
			return no()
		}
	}
	if base == "" {
		return no()
	}
	for _, e := range kf.Entries {
		if e.IsRemote() {
			return no()
		}
		if !e.IsPatch() {
			continue
		}
		if e.HasTarget {
			if e.Target.Kind == "" || !needs.Has(e.Target.Kind, u) || strings.HasSuffix(e.Target.Kind, "List") {
				return no()
			}
			own = append(own, e.Target.Kind)
			continue
		}
		if e.Field == "patchesJson6902" {
			return no()
		}
		text := []byte(e.Inline)
		if e.Value != "" {
			if text = d.res.Text(filepath.Clean(filepath.Join(kf.Dir, e.Value))); text == nil {
				return no()
			}
		}
		kinds, ok := docsNeeded(text, needs, u, false)
		if !ok {
			return no()
		}
		own = append(own, kinds...)
	}
	for _, k := range d.closureKusts(dir) {
		for _, f := range closureFields {
			if k.Fields[f] {
				return no()
			}
		}
		for _, bm := range k.BuildMetadata {
			if bm != trace.OriginOption {
				return no()
			}
		}
		if k.Err != nil {
			return no()
		}
	}
	return base, manifest.NeedKinds(own...), true
}

// allNeeded reports whether every document of a resource file is an object
// of a needed kind that takes no part in name references (condition 2),
// and returns their kinds.
func (d *env) allNeeded(abs string, needs manifest.Needs, u manifest.Unmodelled) ([]string, bool) {
	data, err := safefs.NewKustomizeFS(d.opts.Load.Access).ReadFile(abs)
	if err != nil {
		return nil, false // the full build meets the same refusal and reports it
	}
	return docsNeeded(data, needs, u, true)
}

// docsNeeded reports whether data parses and each of its documents is a
// mapping of a needed kind, none of them a list; with noRefs, none of a
// kind in nameRefKinds either. It returns their kinds.
func docsNeeded(data []byte, needs manifest.Needs, u manifest.Unmodelled, noRefs bool) ([]string, bool) {
	var kinds []string
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			return kinds, errors.Is(err, io.EOF)
		}
		if n.Kind != yaml.DocumentNode || len(n.Content) == 0 {
			continue
		}
		root := n.Content[0]
		if root.Kind != yaml.MappingNode {
			return nil, false
		}
		kind := kustomization.Scalar(root, "kind")
		if kind == "" || strings.HasSuffix(kind, "List") || !needs.Has(kind, u) || noRefs && slices.Contains(nameRefKinds, kind) {
			return nil, false
		}
		kinds = append(kinds, kind)
	}
}

// baseBuild builds the base M on its own (condition 6), once: whether it
// builds, and its needed objects, which overlays building fast share.
func (bc *Cache) baseBuild(m string) *baseEntry {
	bc.mu.Lock()
	e := bc.bases[m]
	if e == nil {
		e = &baseEntry{}
		bc.bases[m] = e
	}
	bc.mu.Unlock()
	e.once.Do(func() {
		d := bc.d
		kf := d.graph.Get(m)
		if kf == nil {
			return
		}
		b, err := bc.full(m)
		if e.ok = err == nil; e.ok {
			e.res = &Result{Problems: b.Set.Problems}
			e.res.Objects, e.res.Origins = trace.Remap(b.Set, b.Origins, m, d.res)
		}
		d.statsMu.Lock()
		d.stats.BaseBuilds++
		d.statsMu.Unlock()
	})
	return e
}

// mergeBase makes the fast build's result: the base's needed objects in
// their order, those of O's kinds replaced by O's build of them (same kind
// and name, in the same order), then O's own documents. ok is false when
// the two do not line up (a patch deleting or renaming an object).
func mergeBase(base *Result, built []*manifest.Object, builtOrigins map[*manifest.Object]*manifest.Object, builtProblems []manifest.Problem, kinds manifest.Needs) (*Result, bool) {
	ownKinds := kinds.Kinds()
	owns := func(o *manifest.Object) bool { return slices.Contains(ownKinds, string(o.Kind)) }
	// O's build also reads back what may hold its kinds (a policy, a
	// misspelt kind): only the objects of its kinds are O's.
	var own []*manifest.Object
	for _, o := range built {
		if owns(o) {
			own = append(own, o)
		}
	}
	out := &Result{Origins: map[*manifest.Object]*manifest.Object{}}
	i := 0
	for _, o := range base.Objects {
		if !owns(o) {
			out.Objects = append(out.Objects, o)
			if src := base.Origins[o]; src != nil {
				out.Origins[o] = src
			}
			continue
		}
		if i >= len(own) || own[i].Kind != o.Kind || own[i].Name != o.Name {
			return nil, false
		}
		out.Objects = append(out.Objects, own[i])
		i++
	}
	out.Objects = append(out.Objects, own[i:]...)
	for _, o := range own {
		if src := builtOrigins[o]; src != nil {
			out.Origins[o] = src
		}
	}
	out.Problems = manifest.UniqueProblems(builtProblems, base.Problems)
	return out, true
}

// filteredFS serves the files in filter with the documents that cannot
// hold a needed object left out; every other call goes to the disk.
type filteredFS struct {
	filesys.FileSystem
	filter map[string]bool                // absolute paths
	kusts  map[string]*kustomization.File // the base's kustomizations, by file
	needs  manifest.Needs
	u      manifest.Unmodelled
	cache  *sync.Map // absolute path → []byte, shared by a discovery's builds
}

func (bc *Cache) filtered(key string) *sync.Map {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	if bc.filterCache == nil {
		bc.filterCache = map[string]*sync.Map{}
	}
	c := bc.filterCache[key]
	if c == nil {
		c = &sync.Map{}
		bc.filterCache[key] = c
	}
	return c
}

// ReadFile serves a filtered resource file, or a kustomization of the base
// without the resource entries whose files filter to nothing (an entry
// yields its file's objects and nothing else, and the base's own full
// build has shown that every entry loads); anything else as on disk.
func (f *filteredFS) ReadFile(p string) ([]byte, error) {
	abs := filepath.Clean(p)
	kf := f.kusts[abs]
	if !f.filter[abs] && kf == nil {
		return f.FileSystem.ReadFile(p)
	}
	if v, ok := f.cache.Load(abs); ok {
		return v.([]byte), nil
	}
	data, err := f.FileSystem.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var out []byte
	if kf != nil {
		out = f.withoutEmpty(kf, data)
	} else {
		out = filterDocuments(data, f.needs, f.u)
	}
	f.cache.Store(abs, out)
	return out, nil
}

// withoutEmpty drops the resources entries of a kustomization whose file
// holds nothing needed; the text is returned as it is when there is none
// or it cannot be rewritten.
func (f *filteredFS) withoutEmpty(kf *kustomization.File, data []byte) []byte {
	empty := map[string]bool{}
	for _, r := range kf.Local() {
		if (r.Field == "resources" || r.Field == "bases") && !r.IsDir && f.filter[r.Abs] {
			if out, err := f.ReadFile(r.Abs); err == nil && len(out) == 0 {
				empty[r.Value] = true
			}
		}
	}
	if len(empty) == 0 {
		return data
	}
	rn, err := yaml.Parse(string(data))
	if err != nil {
		return data
	}
	for _, field := range []string{"resources", "bases"} {
		list := rn.Field(field)
		if list == nil || list.Value.YNode().Kind != yaml.SequenceNode {
			continue
		}
		seq := list.Value.YNode()
		kept := seq.Content[:0:0]
		for _, n := range seq.Content {
			if n.Kind == yaml.ScalarNode && empty[n.Value] {
				continue
			}
			kept = append(kept, n)
		}
		seq.Content = kept
	}
	text, err := rn.String()
	if err != nil {
		return data
	}
	return []byte(text)
}

// kustomizeSeparator is where kustomize's reader splits a stream into
// documents, after turning CRLF into LF (kyaml kio.ByteReader): a line
// starting with "---", which must hold nothing else but a comment.
var kustomizeSeparator = regexp.MustCompile(`\n---.*\n`)

// filterDocuments drops the documents of data that cannot hold a needed
// object, splitting as kustomize does. A stream kustomize would refuse
// (a separator line with content) is returned unchanged; a single document
// is kept or dropped whole; a stream of several documents keeps at least
// two, so that kustomize does not start unwrapping a List it kept as one
// resource (it unwraps a List only in a single-document stream).
func filterDocuments(data []byte, needs manifest.Needs, u manifest.Unmodelled) []byte {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	locs := kustomizeSeparator.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		if needs.MayHold(data, u) {
			return data
		}
		return nil
	}
	var docs []string
	prev := 0
	for _, loc := range locs {
		sep := s[loc[0]:loc[1]]
		if rest := strings.TrimSpace(sep[4:]); rest != "" && rest[0] != '#' {
			return data
		}
		docs = append(docs, s[prev:loc[0]])
		prev = loc[1]
	}
	docs = append(docs, s[prev:])
	var kept []string
	for _, doc := range docs {
		if needs.MayHold([]byte(doc), u) {
			kept = append(kept, doc)
		}
	}
	switch {
	case len(kept) == len(docs):
		return data
	case len(kept) == 0:
		return nil
	}
	// kustomize ends every document but the last with a newline: a kept
	// document stays last, or not last, as it was; and two documents at
	// least, so none is unwrapped as a lone List.
	if !needs.MayHold([]byte(docs[len(docs)-1]), u) {
		kept = append(kept, "")
	}
	if len(kept) == 1 {
		kept = append([]string{""}, kept...)
	}
	return []byte(strings.Join(kept, "\n---\n"))
}

// resetSchema puts kustomize's process-wide OpenAPI schema back to its
// default and parses it, before any build reads it concurrently.
func resetSchema() {
	openapi.ResetOpenAPI()
	openapi.Schema()
}
