package manifest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/contentcache"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// cacheSnippets are file contents of every shape the loader meets: plain
// workloads, image-pulling kinds written in several ways (aliases, flow
// style, comments, suppressions), mirror objects, Lists, policies, and
// files that do not load.
var cacheSnippets = []func(i int) string{
	benchrepo.Deployment,
	benchrepo.Service,
	benchrepo.ConfigMap,
	benchrepo.Mirror,
	func(i int) string { return benchrepo.Deployment(i) + "---\n" + benchrepo.Service(i) },
	func(i int) string {
		return fmt.Sprintf("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p%d\n  annotations: {mirrorlint.io/ignore: image-pull-fails}\nspec:\n  containers:\n  - name: a\n    image: &img quay.io/x/y:%d  # pinned\n  initContainers:\n  - name: b\n    image: *img\n", i, i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: v1\nkind: List\nitems:\n- apiVersion: batch/v1\n  kind: CronJob\n  metadata: {name: c%d}\n  spec:\n    jobTemplate:\n      spec:\n        template:\n          spec:\n            containers: [{name: c, image: \"registry.example.com/c:%d\"}]\n- apiVersion: v1\n  kind: Service\n  metadata: {name: s%d}\n", i, i, i)
	},
	func(i int) string {
		// A typed List whose items name no kind: theirs is the List's.
		return fmt.Sprintf("apiVersion: apps/v1\nkind: DeploymentList\nitems:\n- metadata: {name: dl%d}\n  spec: {template: {spec: {containers: [{name: a, image: quay.io/dl/a:%d}]}}}\n- kind: \"\"\n  metadata: {name: dm%d}\n", i, i, i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata:\n  name: cat-%d\n  namespace: openshift-marketplace\nspec:\n  sourceType: grpc\n  image: registry.redhat.io/redhat/redhat-operator-index:v4.%d\n", i, i%20)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: odd-%d\n  labels: &l {a: b}\nspec:\n  replicas: 0x1F\n  template:\n    metadata: {labels: *l}\n    spec:\n      containers:\n      - {name: x, image: 'quay.io/odd/x@sha256:%064d', args: [1, 2.5, true, null, ~, .inf]}\n", i, i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: v1\nkind: Pod\nmetadata:\n  name: broken-%d\n  spec: [\n", i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: bad-%d\nspec:\n  imageDigestMirrors: {source: x}\n", i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: policy.open-cluster-management.io/v1\nkind: Policy\nmetadata:\n  name: pol-%d\n  namespace: p\nspec:\n  policy-templates:\n  - objectDefinition:\n      apiVersion: policy.open-cluster-management.io/v1\n      kind: ConfigurationPolicy\n      metadata: {name: cp-%d}\n      spec:\n        object-templates:\n        - complianceType: musthave\n          objectDefinition:\n            apiVersion: apps/v1\n            kind: DaemonSet\n            metadata: {name: ds-%d}\n            spec:\n              template:\n                spec:\n                  containers: [{name: d, image: quay.io/ds/d:%d}]\n", i, i, i, i)
	},
	// The kinds the loader models, stored as their nodes and decoded again.
	func(i int) string {
		return fmt.Sprintf("apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata: {name: icsp-%d}\nspec:\n  repositoryDigestMirrors:\n  - source: quay.io/a/b\n    mirrors: [m.example.com/a/b]\n", i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: config.openshift.io/v1\nkind: ImageTagMirrorSet\nmetadata:\n  name: itms-%d\n  annotations: {config.kubernetes.io/origin: \"path: base/x.yaml\"}\nspec:\n  imageTagMirrors:\n  - {source: registry.example.com/t, mirrors: [<registry.example.com:8443>/t], mirrorSourcePolicy: NeverContactSource}\n", i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: config.openshift.io/v1\nkind: Image\nmetadata: {name: cluster}\nspec:\n  registrySources:\n    blockedRegistries: [b%d.example.com]\n  additionalTrustedCA: {name: ca}\n", i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: config.openshift.io/v1alpha1\nkind: ClusterImagePolicy\nmetadata: {name: cip-%d}\nspec:\n  scopes: [quay.io/a, \"*.example.com\"]\n  policy:\n    rootOfTrust:\n      policyType: PublicKey\n      publicKey: {keyData: dGVzdA==}\n", i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSetList\nitems:\n- metadata: {name: l-%d}\n  spec: {imageDigestMirrors: [{source: quay.io/l, mirrors: [m.example.com/l]}]}\n", i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSets\nmetadata: {name: typo-%d}\nspec: {imageDigestMirrors: []}\n", i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-%d\n  labels: {machineconfiguration.openshift.io/role: worker}\nspec:\n  config:\n    ignition: {version: 3.2.0}\n    storage:\n      files:\n      - path: /etc/containers/registries.conf.d/99-x.conf\n        mode: 420\n        contents: {source: \"data:,x\"}\n", i)
	},
	func(i int) string {
		return fmt.Sprintf("apiVersion: operator.openshift.io/v1\nkind: MachineConfiguration\nmetadata: {name: cluster}\nspec:\n  nodeDisruptionPolicy:\n    files:\n    - path: /etc/containers/registries.conf\n      actions: [{type: Reload, reload: {serviceName: crio.service}}]\n---\napiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfiguration\nmetadata: {name: wrong-%d}\n", i)
	},
	func(i int) string { return "" },
	func(i int) string { return fmt.Sprintf("# only a comment %d\n", i) },
	func(i int) string { return fmt.Sprintf("kind: Kustomization\nresources: [a-%d.yaml]\n", i) },
	func(i int) string {
		return fmt.Sprintf("apiVersion: v1\nbaseDomain: example.com\nmetadata:\n  name: c%d\nimageDigestSources:\n- source: quay.io/openshift-release-dev/ocp-release\n  mirrors: [mirror.example.com/ocp%d]\n", i, i)
	},
}

// cacheTree is a random tree of files kept in memory, written to dir.
type cacheTree struct {
	dir   string
	files map[string]string
	rng   *rand.Rand
	next  int
}

func (c *cacheTree) content() string {
	c.next++
	return cacheSnippets[c.rng.IntN(len(cacheSnippets))](c.next)
}

func (c *cacheTree) put(t *testing.T, rel, text string) {
	t.Helper()
	c.files[rel] = text
	testtree.WriteFile(t, filepath.Join(c.dir, rel), text)
}

// edit changes the tree as a commit would: a file rewritten, one with a
// small change inside (an image, a line added above everything, a
// character broken), a file added, a file removed, one file's content
// copied to another place.
func (c *cacheTree) edit(t *testing.T) string {
	t.Helper()
	names := make([]string, 0, len(c.files))
	for n := range c.files {
		names = append(names, n)
	}
	slices.Sort(names)
	pick := names[c.rng.IntN(len(names))]
	text := c.files[pick]
	switch c.rng.IntN(6) {
	case 0:
		c.put(t, pick, c.content())
	case 1:
		c.put(t, pick, strings.Replace(text, "quay.io", "ghcr.io", 1))
	case 2:
		c.put(t, pick, "# a line above everything\n"+text)
	case 3:
		c.put(t, pick, strings.Replace(text, ":", "", 1))
	case 4:
		name := fmt.Sprintf("d%d/new-%d.yaml", c.rng.IntN(4), c.next)
		if c.rng.IntN(3) == 0 {
			// The loader reads an install-config by its name: the same
			// text under another name gives another result.
			name = fmt.Sprintf("d%d/install-config.yaml", c.rng.IntN(4))
			if c.rng.IntN(2) == 0 {
				c.put(t, name, text)
				break
			}
		}
		c.put(t, name, c.content())
	case 5:
		if len(names) > 1 {
			delete(c.files, pick)
			if err := os.Remove(filepath.Join(c.dir, pick)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return pick
}

// blobs is what git would say: the blob id of every file as it was when
// "indexed", for the files not changed since.
func (c *cacheTree) blobs() map[string]string {
	m := map[string]string{}
	for rel, text := range c.files {
		m[filepath.Join(c.dir, rel)] = BlobID([]byte(text))
	}
	return m
}

// A cached load gives exactly what an uncached one gives, on random trees
// and after random edits, for every option that shapes the result: a
// first run filling the cache, later runs reading it, with and without
// blob ids from git (a changed file is not in the index's list and is
// hashed), each pack written and read back from disk.
func TestCachedLoadsEqualUncachedLoads(t *testing.T) {
	t.Parallel()
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			tree := &cacheTree{dir: t.TempDir(), files: map[string]string{}, rng: rng}
			for i := range 20 + rng.IntN(30) {
				tree.put(t, fmt.Sprintf("d%d/f%d.yaml", i%4, i), tree.content())
			}
			tree.put(t, "d0/install-config.yaml", tree.content())
			cacheDir := t.TempDir()
			var hits atomic.Int64
			for round := range 6 {
				if round > 0 {
					for range 1 + rng.IntN(3) {
						tree.edit(t)
					}
				}
				var index map[string]string
				if round%2 == 1 {
					// git's index as of before this round's edits is
					// stale for the edited files; the command lists only
					// the files the work tree has not changed.
					index = tree.blobs()
				}
				for _, keep := range []Unmodelled{UnmodelledNone, UnmodelledImages, UnmodelledAll} {
					opts := Options{Unmodelled: keep}
					if rng.IntN(2) == 0 {
						needs := NeedKinds(string(KindIDMS), "Deployment", KindInstallConfig)
						opts.Prefilter = &needs
					}
					want := mustLoad(t, []string{tree.dir}, opts)
					pack := contentcache.Open(cacheDir, "test", CacheFormat)
					opts.Cache = countingCache{pack, &hits}
					if index != nil {
						opts.Blobs = func(p string) (string, bool) { b, ok := index[p]; return b, ok }
					}
					got := mustLoad(t, []string{tree.dir}, opts)
					if err := pack.Close(); err != nil {
						t.Fatal(err)
					}
					// The one thing a cached load adds: each text's blob id,
					// which only its digest reads (see Digest).
					for _, o := range got.Objects {
						if o.src != nil {
							o.src.blob = ""
						}
					}
					if !reflect.DeepEqual(got, want) {
						for i := range min(len(got.Objects), len(want.Objects)) {
							g, w := got.Objects[i], want.Objects[i]
							if !reflect.DeepEqual(g, w) {
								t.Logf("object %d: node %v content %v\n%#v\n%#v", i, reflect.DeepEqual(g.Node, w.Node), reflect.DeepEqual(g.Content, w.Content), g.Content, w.Content)
								gv, wv := reflect.ValueOf(*g), reflect.ValueOf(*w)
								for f := range gv.NumField() {
									if !gv.Type().Field(f).IsExported() {
										continue
									}
									if !reflect.DeepEqual(gv.Field(f).Interface(), wv.Field(f).Interface()) {
										t.Logf("field %s differs", gv.Type().Field(f).Name)
									}
								}
								break
							}
						}
						t.Fatalf("round %d, %v: the cached load differs\n got %s\nwant %s", round, keep, describeSet(got), describeSet(want))
					}
				}
			}
			if hits.Load() == 0 {
				t.Fatal("no file was answered from the cache: the test compares nothing")
			}
		})
	}
}

// countingCache counts the entries found.
type countingCache struct {
	Cache
	hits *atomic.Int64
}

func (c countingCache) Get(k string) ([]byte, bool) {
	v, ok := c.Cache.Get(k)
	if ok {
		c.hits.Add(1)
	}
	return v, ok
}

func describeSet(s *Set) string {
	var b strings.Builder
	for _, o := range s.Objects {
		fmt.Fprintf(&b, "\n  %s %s doc %d item %d partial %v", o.File, o.Ref(), o.Doc, o.Item, o.Partial)
	}
	for _, p := range s.Problems {
		fmt.Fprintf(&b, "\n  %s", p)
	}
	return b.String()
}

// memCache is a Cache in memory whose entries a test can spoil.
type memCache map[string][]byte

func (m memCache) Get(k string) ([]byte, bool) { v, ok := m[k]; return v, ok }
func (m memCache) Put(k string, v []byte)      { m[k] = v }

// An entry that does not decode is ignored and the file parsed; so is an
// entry cut short, or one with bytes after its end. (The pack's checksum
// is what catches an entry altered into another well-formed one.)
func TestABadEntryIsIgnored(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "d.yaml"), benchrepo.Deployment(1))
	opts := Options{Unmodelled: UnmodelledImages}
	want := mustLoad(t, []string{dir}, opts)
	if len(want.Objects) != 1 || !want.Objects[0].Partial {
		t.Fatalf("the fixture gives %s", describeSet(want))
	}
	m := memCache{}
	opts.Cache = m
	mustLoad(t, []string{dir}, opts)
	if len(m) != 1 {
		t.Fatalf("%d entries stored, want 1", len(m))
	}
	var good []byte
	for _, v := range m {
		good = v
	}
	spoil := map[string][]byte{
		"garbage":    []byte("not an entry at all"),
		"empty":      nil,
		"truncated":  good[:len(good)/2],
		"trailing":   append(append([]byte{}, good...), 0),
		"huge count": append([]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, good[1:]...),
		"bad flag":   append([]byte{7}, good[1:]...),
	}
	for name, bad := range spoil {
		for k := range m {
			m[k] = bad
		}
		if got := mustLoad(t, []string{dir}, opts); !reflect.DeepEqual(got, want) {
			t.Errorf("%s entry: got %s", name, describeSet(got))
		}
	}
}

// What cannot be restored exactly is not stored: files with problems.
func TestOnlyExactResultsAreStored(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		text string
		keep Unmodelled
	}{
		"a decode error": {"apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: x}\nspec:\n  imageDigestMirrors: {source: x}\n", UnmodelledImages},
		"a parse error":  {"a: [\n", UnmodelledImages},
	} {
		dir := t.TempDir()
		testtree.WriteFile(t, filepath.Join(dir, "f.yaml"), c.text)
		m := memCache{}
		mustLoad(t, []string{dir}, Options{Unmodelled: c.keep, Cache: m})
		if len(m) != 0 {
			t.Errorf("%s: stored %d entries", name, len(m))
		}
	}
}

// A file listed with a blob id is not read when its result is stored: the
// cache answers for it even when the file has become unreadable.
func TestAKnownBlobIsNotRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "d.yaml")
	testtree.WriteFile(t, p, benchrepo.Deployment(1))
	m := memCache{}
	opts := Options{Unmodelled: UnmodelledImages, Cache: m}
	want := mustLoad(t, []string{dir}, opts)
	blob := BlobID([]byte(benchrepo.Deployment(1)))
	if err := os.WriteFile(p, []byte("kind: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Blobs = func(q string) (string, bool) { return blob, q == p }
	if got := mustLoad(t, []string{dir}, opts); !reflect.DeepEqual(got, want) {
		t.Errorf("got %s, want %s", describeSet(got), describeSet(want))
	}
}

// A ZTP generator's objects come from its source CRs too: its result
// depends on other files and is never stored under its own content, so an
// edit to a source CR is seen.
func TestAGeneratorIsNotStored(t *testing.T) {
	t.Parallel()
	gen := "testdata/ztp-expand/group-du-sno.yaml"
	data, err := os.ReadFile(gen)
	if err != nil {
		t.Fatal(err)
	}
	res := parseFileAt(gen, gen, "", data, Options{})
	if !res.readOthers {
		t.Fatal("a generator's result is not marked as reading other files")
	}
	// Even were it a result the cache could restore.
	d := mustLoad(t, []string{writeTemp(t, benchrepo.Deployment(1))}, Options{Unmodelled: UnmodelledImages})
	m := memCache{}
	Options{Cache: m}.store(gen, BlobID(data), data, fileResult{objects: d.Objects, readOthers: true})
	if len(m) != 0 {
		t.Errorf("%d entries stored for a generator", len(m))
	}
	Options{Cache: m}.store(gen, BlobID(data), data, fileResult{objects: d.Objects})
	if len(m) != 1 {
		t.Errorf("the control case stored %d entries", len(m))
	}
}

func writeTemp(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f.yaml")
	testtree.WriteFile(t, p, text)
	return p
}
