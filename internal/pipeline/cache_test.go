package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/randcluster"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// memStore is a result store in memory (contentcache.Pack without the
// file).
type memStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memStore) Get(k string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok
}

func (s *memStore) Put(k string, v []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = v
}

// randomTree is a tree of several clusters drawn by randcluster: a
// kustomize base with two overlays (one adding a file and patching the
// base), and two plain directories; every document in a file of its own.
type randomTree struct {
	dir   string
	files []string // slash paths of the manifest files, kustomizations excluded
	r     *rand.Rand
}

func newRandomTree(t *testing.T, seed uint64) *randomTree {
	rt := &randomTree{dir: t.TempDir(), r: rand.New(rand.NewPCG(seed, 7))}
	base := []string{"base-idms.yaml"}
	rt.write(t, "base/base-idms.yaml", "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: base-idms\nspec:\n  imageDigestMirrors:\n  - source: quay.io/base\n    mirrors: [mirror.example.com/base]\n")
	for i, d := range rt.docs() {
		name := fmt.Sprintf("b%02d.yaml", i)
		base = append(base, name)
		rt.write(t, "base/"+name, d)
	}
	rt.write(t, "base/kustomization.yaml", "resources:\n- "+strings.Join(base, "\n- ")+"\n")
	rt.write(t, "overlays/a/extra.yaml", rt.docs()[0])
	rt.write(t, "overlays/a/patch.yaml", "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: base-idms\nspec:\n  imageDigestMirrors:\n  - source: quay.io/base\n    mirrors: [mirror.example.com/a]\n")
	rt.write(t, "overlays/a/kustomization.yaml", "resources:\n- ../../base\n- extra.yaml\npatches:\n- path: patch.yaml\n")
	rt.write(t, "overlays/b/kustomization.yaml", "resources:\n- ../../base\n")
	for _, p := range []string{"plain/x", "plain/y"} {
		for i, d := range rt.docs() {
			rt.write(t, fmt.Sprintf("%s/p%02d.yaml", p, i), d)
		}
	}
	return rt
}

// docs draws one cluster's manifests, split into documents.
func (rt *randomTree) docs() []string {
	c := randcluster.Generate(rt.r, randcluster.Options{Minor: 18 + rt.r.IntN(4)})
	var out []string
	for _, d := range strings.Split(c.Manifests, "\n---\n") {
		if d = strings.TrimPrefix(d, "---\n"); strings.TrimSpace(d) != "" {
			out = append(out, d+"\n")
		}
	}
	return out
}

func (rt *randomTree) write(t *testing.T, name, body string) {
	t.Helper()
	testtree.WriteAt(t, rt.dir, map[string]string{name: body})
	if !strings.HasSuffix(name, "kustomization.yaml") && !contains(rt.files, name) {
		rt.files = append(rt.files, name)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// edit changes the manifest file name at random: another document, a
// comment, a suppression comment, a value, or (in a plain directory) the
// file removed, which it reports.
func (rt *randomTree) edit(t *testing.T, name string) (removed bool) {
	p := filepath.Join(rt.dir, filepath.FromSlash(name))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	switch rt.r.IntN(5) {
	case 0:
		docs := rt.docs()
		rt.write(t, name, docs[rt.r.IntN(len(docs))])
	case 1:
		rt.write(t, name, string(data)+"# edited\n")
	case 2:
		rt.write(t, name, "# mirrorlint:ignore duplicate-object reviewed\n"+string(data))
	case 3:
		rt.write(t, name, strings.Replace(string(data), "example.com", "example.org", 1))
	default:
		if !strings.HasPrefix(name, "plain/") {
			rt.write(t, name, string(data)+"\n")
			break
		}
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		rt.files = removeName(rt.files, name)
		return true
	}
	return false
}

// editOne edits a file drawn at random and returns its name and its bytes
// before the edit (nil when the edit removed it).
func (rt *randomTree) editOne(t *testing.T) (string, []byte) {
	name := rt.files[rt.r.IntN(len(rt.files))]
	before, err := os.ReadFile(filepath.Join(rt.dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	if rt.edit(t, name) {
		return name, nil
	}
	return name, before
}

func removeName(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// runOnce lints dir, through store when it is not nil, and returns the
// result and what the user is shown of it.
func runOnce(t *testing.T, checks *Checks, cfg *config.Config, dir string, store *memStore) (*Result, string) {
	t.Helper()
	req := Request{Options: project.Options{Paths: []string{dir}, Config: cfg}}
	if store != nil {
		// One store for both: the loader's per-file results and stored
		// kustomize builds, and the per-cluster results (their keys do
		// not meet).
		req.Results, req.Cache = store, store
	}
	return runReport(t, checks, req, false)
}

// runReport runs req and returns what the formatters read of the result
// (with what the command's notes about the tree read, when withRead), as
// JSON, so that two runs compare as text.
func runReport(t *testing.T, checks *Checks, req Request, withRead bool) (*Result, string) {
	t.Helper()
	res, err := Run(context.Background(), checks, req)
	if err != nil {
		t.Fatal(err)
	}
	var read *ReadSummary
	if withRead {
		r := res.Read()
		read = &r
	}
	out, err := json.MarshalIndent(struct {
		Findings any
		Outcomes []Outcome
		Files    []string
		Read     *ReadSummary `json:",omitempty"`
	}{res.Findings, res.Outcomes(), res.Files, read}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return res, string(out)
}

// cachingChecks are the checks o describes; the test is skipped when this
// build has no ID, since results are then never cached.
func cachingChecks(t *testing.T, o policy.Options) *Checks {
	t.Helper()
	checks, err := LoadChecks(o)
	if err != nil {
		t.Fatal(err)
	}
	if checks.fingerprint == "" {
		t.Skip("no build ID: results are not cached")
	}
	return checks
}

// The cached run reports exactly what the uncached one does, on random
// trees after random edits; a run over an unchanged tree checks no
// cluster again, and after an edit to one file only the clusters reading
// it are checked again: in a plain directory, whose objects hold the
// file's text, always; through a kustomize build only when the built
// objects change (a comment at the end of a patch changes nothing built).
func TestResultCacheMatchesUncached(t *testing.T) {
	t.Parallel()
	checks := cachingChecks(t, policy.Options{Builtin: true})
	cfgs := []*config.Config{{}, {Rules: map[string]string{"duplicate-object": "off"}}}
	for seed := uint64(1); seed <= 4; seed++ {
		rt := newRandomTree(t, seed)
		store := &memStore{m: map[string][]byte{}}
		for round := 0; round < 6; round++ {
			cfg := cfgs[round%2*int(seed%2)]
			_, want := runOnce(t, checks, cfg, rt.dir, nil)
			res, got := runOnce(t, checks, cfg, rt.dir, store)
			if got != want {
				t.Fatalf("seed %d round %d: cached run differs\ncached:\n%s\nuncached:\n%s", seed, round, got, want)
			}
			again, got := runOnce(t, checks, cfg, rt.dir, store)
			if got != want || again.Reused != len(again.Project.Clusters) {
				t.Fatalf("seed %d round %d: unchanged tree: %d of %d clusters reused, same output %v", seed, round, again.Reused, len(again.Project.Clusters), got == want)
			}
			name, before := rt.editOne(t)
			if before == nil {
				continue
			}
			now, _ := os.ReadFile(filepath.Join(rt.dir, filepath.FromSlash(name)))
			changed := string(now) != string(before)
			readers := len(res.Project.ClustersIncluding([]string{filepath.Join(rt.dir, filepath.FromSlash(name))}))
			after, got := runOnce(t, checks, cfg, rt.dir, store)
			if _, want := runOnce(t, checks, cfg, rt.dir, nil); got != want {
				t.Fatalf("seed %d round %d: after editing %s the cached run differs\ncached:\n%s\nuncached:\n%s", seed, round, name, got, want)
			}
			n := len(after.Project.Clusters)
			if n != len(res.Project.Clusters) {
				continue
			}
			if after.Reused < n-readers || changed && strings.HasPrefix(name, "plain/") && after.Reused != n-readers {
				t.Errorf("seed %d round %d: editing %s (read by %d of %d clusters) reused %d", seed, round, name, readers, n, after.Reused)
			}
		}
	}
}

// An entry that does not decode, is cut short, names another key or holds
// neither a render nor a refusal is not taken: the cluster is checked
// again and its entry rewritten.
func TestResultCacheIgnoresBadEntries(t *testing.T) {
	t.Parallel()
	checks := cachingChecks(t, policy.Options{Builtin: true})
	rt := newRandomTree(t, 42)
	cfg := &config.Config{}
	_, want := runOnce(t, checks, cfg, rt.dir, nil)
	store := &memStore{m: map[string][]byte{}}
	runOnce(t, checks, cfg, rt.dir, store)
	// The per-cluster results (the loader's entries share the store:
	// they are content-addressed, and the pack's checksum guards them).
	var keys []string
	for k := range store.m {
		if strings.HasPrefix(k, "cluster/") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) < 3 {
		t.Fatalf("%d entries, want one per cluster", len(keys))
	}
	good := map[string][]byte{}
	for k, v := range store.m {
		good[k] = v
	}
	bad := []func(k string, i int) []byte{
		func(string, int) []byte { return []byte("not json") },
		func(k string, _ int) []byte { return good[k][:len(good[k])/2] },
		func(_ string, i int) []byte { return good[keys[(i+1)%len(keys)]] }, // another cluster's entry
		func(k string, _ int) []byte { return []byte(`{"key":"` + k + `","findings":[]}`) },
		func(k string, _ int) []byte {
			return []byte(`{"key":"` + k + `","findings":[],"rendered":{},"extra":1}`)
		},
	}
	for n, corrupt := range bad {
		for i, k := range keys {
			store.m[k] = corrupt(k, i)
		}
		res, got := runOnce(t, checks, cfg, rt.dir, store)
		if got != want {
			t.Fatalf("corruption %d: the run differs from an uncached one\ngot:\n%s\nwant:\n%s", n, got, want)
		}
		if res.Reused != 0 {
			t.Errorf("corruption %d: %d clusters taken from bad entries", n, res.Reused)
		}
		if again, _ := runOnce(t, checks, cfg, rt.dir, store); again.Reused != len(again.Project.Clusters) {
			t.Errorf("corruption %d: entries not rewritten: %d of %d reused", n, again.Reused, len(again.Project.Clusters))
		}
	}
}

// A cluster whose policy evaluation was stopped at its memory budget is
// not stored: the next run evaluates it again instead of repeating a stop
// that depended on what else the run held at the time.
func TestResultCacheKeepsNoStoppedEvaluation(t *testing.T) {
	t.Parallel()
	pol := testtree.Write(t, map[string]string{
		"big.rego": "package acme.big\n\ndeny contains \"x\" if {\n\tx := [[a, b] | some a in numbers.range(1, 1000000); some b in numbers.range(1, 1000000)]\n\tcount(x) > 0\n}\n",
	})
	checks := cachingChecks(t, policy.Options{Builtin: true, Dirs: []string{pol}, Memory: 4 << 20})
	dir := testtree.Write(t, map[string]string{
		"idms.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: a}\nspec:\n  imageDigestMirrors:\n  - {source: quay.io/a, mirrors: [m.example.com/a]}\n",
	})
	store := &memStore{m: map[string][]byte{}}
	for run := range 2 {
		res, out := runOnce(t, checks, &config.Config{}, dir, store)
		if !strings.Contains(out, "policy evaluation stopped at the memory budget of 4 MiB") {
			t.Fatalf("run %d: the policy was not stopped at its budget:\n%s", run, out)
		}
		results := 0
		for k := range store.m {
			if strings.HasPrefix(k, "cluster/") {
				results++
			}
		}
		if res.Reused != 0 || results != 0 {
			t.Fatalf("run %d: %d clusters reused, %d results stored, want none", run, res.Reused, results)
		}
	}
}

// sealedStore fails the test on a Put after it was sealed.
type sealedStore struct {
	memStore
	t      *testing.T
	sealed atomic.Bool
	puts   atomic.Int64
}

func (s *sealedStore) Put(k string, v []byte) {
	if s.sealed.Load() {
		s.t.Errorf("%s stored after Loaded was called", k)
	}
	s.puts.Add(1)
	s.memStore.Put(k, v)
}

// Loaded is called once, when the loader and the builds are done with the
// loader's cache: nothing is stored in it afterwards, on a first run (whose
// loader stores every file and build) and on one after an edit.
func TestLoadedComesAfterTheLoadersLastStore(t *testing.T) {
	t.Parallel()
	checks := cachingChecks(t, policy.Options{Builtin: true})
	rt := newRandomTree(t, 5)
	files := &sealedStore{memStore: memStore{m: map[string][]byte{}}, t: t}
	results := &memStore{m: map[string][]byte{}}
	for round := range 2 {
		if round == 1 {
			rt.editOne(t)
		}
		calls := 0
		files.sealed.Store(false)
		before := files.puts.Load()
		req := Request{Options: project.Options{Paths: []string{rt.dir}, Config: &config.Config{}, Access: safefs.New(0, rt.dir), Cache: files}, Results: results}
		req.Loaded = func() { calls++; files.sealed.Store(true) }
		runReport(t, checks, req, false)
		if calls != 1 {
			t.Errorf("round %d: Loaded called %d times", round, calls)
		}
		if round == 0 && files.puts.Load() == before {
			t.Fatal("the first run's loader stored nothing: the test checks nothing")
		}
	}
}
