package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/build"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/contentcache"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The recorder hears of every build only while it is a build.BuildLog.
var _ build.BuildLog = (*runRecorder)(nil)

// wholeRun lints dir as the command does in a repository: reads confined
// to dir, and with runs set, the loader's cache (files), the per-cluster
// results and whole runs (runs) kept between runs. It returns the result
// and everything the command shows of it.
func wholeRun(t *testing.T, checks *Checks, cfg *config.Config, dir string, files manifest.Cache, runs *memStore) (*Result, string) {
	t.Helper()
	req := Request{Options: project.Options{Paths: []string{dir}, Config: cfg, Access: safefs.New(0, dir)}}
	if runs != nil {
		req.Cache, req.Results, req.Runs = files, runs, runs
	}
	return runReport(t, checks, req, true)
}

// countingStore is a store that counts the lookups made of it.
type countingStore struct {
	memStore
	gets atomic.Int64
}

func (s *countingStore) Get(k string) ([]byte, bool) {
	s.gets.Add(1)
	return s.memStore.Get(k)
}

// A policy whose findings an edit of the tree (example.com to example.org)
// or of the policy itself changes.
func mirrorPolicy(host string) string {
	return "package main\n\ndeny contains msg if {\n\tinput.kind == \"ImageDigestMirrorSet\"\n\tsome e in input.spec.imageDigestMirrors\n\tsome m in e.mirrors\n\tcontains(m, \"" + host + "\")\n\tmsg := sprintf(\"%s mirrors to " + host + "\", [input.metadata.name])\n}\n"
}

// The run taken whole from the cache reports exactly what an uncached run
// does, on random trees after random edits: to manifests (values,
// comments, suppression comments, whole documents, removed files), to a
// file only kustomize reads (a configMapGenerator's), to a kustomization,
// a new file, the config and the team's policy. The run after each cached
// one is a whole-run hit, and the first run after a change is not.
func TestRunCacheMatchesUncached(t *testing.T) {
	t.Parallel()
	pol := t.TempDir()
	hosts := []string{"example.org", "mirror.example.com/a"}
	cfgs := []*config.Config{{}, {Rules: map[string]string{"duplicate-object": "off"}}}
	for seed := uint64(1); seed <= 3; seed++ {
		rt := newRandomTree(t, seed)
		rt.write(t, "overlays/b/settings.properties", "level=1\n")
		rt.write(t, "overlays/b/kustomization.yaml", "resources:\n- ../../base\nconfigMapGenerator:\n- name: settings\n  files:\n  - settings.properties\n")
		rt.files = removeName(rt.files, "overlays/b/settings.properties") // edited on its own below
		host, cfg, extra := 0, 0, true
		files, runs := &memStore{m: map[string][]byte{}}, &memStore{m: map[string][]byte{}}
		var checks *Checks
		seen := map[string]bool{}
		for round := 0; round < 8; round++ {
			what := "nothing (first round)"
			if round > 0 {
				switch k := rt.r.IntN(7); k {
				case 0:
					host = 1 - host
					what = "the policy"
				case 1:
					cfg = 1 - cfg
					what = "the config"
				case 2:
					p := filepath.Join(rt.dir, "overlays/b/settings.properties")
					data, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					testtree.WriteAt(t, rt.dir, map[string]string{"overlays/b/settings.properties": string(data) + "more=1\n"})
					what = "a file only kustomize reads"
				case 3:
					extra = !extra
					kust := "resources:\n- ../../base\npatches:\n- path: patch.yaml\n"
					if extra {
						kust = "resources:\n- ../../base\n- extra.yaml\npatches:\n- path: patch.yaml\n"
					}
					rt.write(t, "overlays/a/kustomization.yaml", kust)
					what = "a kustomization"
				case 4:
					rt.write(t, fmt.Sprintf("plain/x/new-%d.yaml", round), rt.docs()[0])
					what = "a new file"
				default:
					name, _ := rt.editOne(t)
					what = name
				}
			}
			if checks == nil || what == "the policy" {
				testtree.WriteAt(t, pol, map[string]string{"mirrors.rego": mirrorPolicy(hosts[host])})
				checks = cachingChecks(t, policy.Options{Builtin: true, Dirs: []string{pol}})
			}
			_, want := wholeRun(t, checks, cfgs[cfg], rt.dir, nil, nil)
			first, got := wholeRun(t, checks, cfgs[cfg], rt.dir, files, runs)
			if got != want {
				t.Fatalf("seed %d round %d, after editing %s: cached run differs\ncached:\n%s\nuncached:\n%s", seed, round, what, got, want)
			}
			again, got := wholeRun(t, checks, cfgs[cfg], rt.dir, files, runs)
			if got != want {
				t.Fatalf("seed %d round %d, after editing %s: the run taken whole differs\ncached:\n%s\nuncached:\n%s", seed, round, what, got, want)
			}
			if !again.WholeRun || again.Project != nil {
				t.Fatalf("seed %d round %d: an unchanged tree was not taken whole", seed, round)
			}
			// Every edit above changes bytes the run may read or what
			// checks them, and may bring back an earlier state: the run
			// is taken whole exactly when its inputs were all seen before.
			state := treeState(t, rt.dir) + hosts[host] + fmt.Sprint(cfg)
			if first.WholeRun != seen[state] {
				t.Errorf("seed %d round %d: after editing %s the run was taken whole: %v, the same inputs seen before: %v", seed, round, what, first.WholeRun, seen[state])
			}
			seen[state] = true
		}
	}
}

// A run taken whole loads nothing: the loader's cache, which every file
// the loader reads and every kustomize build is looked up in, is not asked
// once.
func TestRunCacheHitLoadsNothing(t *testing.T) {
	t.Parallel()
	checks := cachingChecks(t, policy.Options{Builtin: true})
	rt := newRandomTree(t, 9)
	files := &countingStore{memStore: memStore{m: map[string][]byte{}}}
	runs := &memStore{m: map[string][]byte{}}
	cfg := &config.Config{}
	_, want := wholeRun(t, checks, cfg, rt.dir, nil, nil)
	filled, _ := wholeRun(t, checks, cfg, rt.dir, files, runs)
	if filled.WholeRun || files.gets.Load() == 0 {
		t.Fatalf("the first run was taken whole (%v) or loaded nothing (%d lookups)", filled.WholeRun, files.gets.Load())
	}
	files.gets.Store(0)
	res, got := wholeRun(t, checks, cfg, rt.dir, files, runs)
	if got != want {
		t.Fatalf("the run taken whole differs\ngot:\n%s\nwant:\n%s", got, want)
	}
	if !res.WholeRun || files.gets.Load() != 0 {
		t.Fatalf("taken whole %v, %d lookups of the loader's cache; want a hit and none", res.WholeRun, files.gets.Load())
	}
	if res.Reused != len(filled.Project.Clusters) {
		t.Errorf("%d clusters reused, want all %d", res.Reused, len(filled.Project.Clusters))
	}
}

// An entry that does not decode, is cut short, names another key, holds an
// unknown field or a cluster without exactly one outcome is not taken: the
// run loads and checks as without it, and rewrites it.
func TestRunCacheIgnoresBadEntries(t *testing.T) {
	t.Parallel()
	checks := cachingChecks(t, policy.Options{Builtin: true})
	rt := newRandomTree(t, 11)
	cfgs := []*config.Config{{}, {Rules: map[string]string{"duplicate-object": "off"}}}
	runs := &memStore{m: map[string][]byte{}}
	var wants []string
	for _, cfg := range cfgs {
		_, want := wholeRun(t, checks, cfg, rt.dir, nil, nil)
		wants = append(wants, want)
		wholeRun(t, checks, cfg, rt.dir, nil, runs)
	}
	var keys []string
	for k := range runs.m {
		if strings.HasPrefix(k, "run/") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) != 2 {
		t.Fatalf("%d whole runs kept, want one per config", len(keys))
	}
	good := map[string][]byte{}
	for _, k := range keys {
		good[k] = runs.m[k]
	}
	bad := map[string]func(k string, i int) []byte{
		"not json":      func(string, int) []byte { return []byte("not json") },
		"cut short":     func(k string, _ int) []byte { return good[k][:len(good[k])/2] },
		"another key's": func(_ string, i int) []byte { return good[keys[1-i]] },
		"unknown field": func(k string, _ int) []byte {
			return append(append([]byte(nil), good[k][:len(good[k])-1]...), []byte(`,"extra":1}`)...)
		},
		"no outcome": func(k string, _ int) []byte {
			var r map[string]any
			if err := json.Unmarshal(good[k], &r); err != nil {
				t.Fatal(err)
			}
			r["outcomes"] = []map[string]any{{"Name": "x"}}
			data, _ := json.Marshal(r)
			return data
		},
		"trailing data": func(k string, _ int) []byte { return append(append([]byte(nil), good[k]...), []byte(`{}`)...) },
	}
	for name, corrupt := range bad {
		for i, k := range keys {
			runs.m[k] = corrupt(k, i)
		}
		for i, cfg := range cfgs {
			res, got := wholeRun(t, checks, cfg, rt.dir, nil, runs)
			if got != wants[i] {
				t.Fatalf("%s entry, config %d: the run differs from an uncached one\ngot:\n%s\nwant:\n%s", name, i, got, wants[i])
			}
			if res.WholeRun {
				t.Errorf("%s entry, config %d: taken whole", name, i)
			}
			if again, _ := wholeRun(t, checks, cfg, rt.dir, nil, runs); !again.WholeRun {
				t.Errorf("%s entry, config %d: not rewritten", name, i)
			}
		}
	}
}

// treeState is every file of dir with its content.
func treeState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		fmt.Fprintf(&b, "%s %q\n", p, data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The run key holds every field of the request and its options that can
// change the result (runKey); a new field must be added there, or here
// with the reason it changes nothing, before this test passes.
func TestRunKeyKnowsEveryOption(t *testing.T) {
	t.Parallel()
	known := map[string]string{
		// project.Options
		"Paths": "key", "ConfigPath": "key", "Config": "run fingerprint", "ReleaseImage": "key", "OpenShiftVersion": "key",
		"MaxFileSize": "key", "Cluster": "key", "Shard": "key", "Stream": "never kept", "Root": "key", "Repository": "key",
		"Only": "key", "Absent": "key", "Needs": "key", "Narrowed": "Run sets it, from the checks and Only", "Select": "key", "Static": "key", "Files": "digest", "Access": "key and listing",
		"Unmodelled": "key", "FeatureSet": "key", "NoDefaultPolicy": "key",
		"Cache": "results do not depend on it", "Blobs": "an id git gives equals the content's",
		// Request
		"Options": "above", "Context": "key", "OriginRoots": "key", "Base": "never kept", "Results": "results do not depend on it",
		"Runs": "the store itself", "Loaded": "a notice to the caller",
	}
	for _, typ := range []reflect.Type{reflect.TypeOf(project.Options{}), reflect.TypeOf(Request{})} {
		for i := range typ.NumField() {
			if f := typ.Field(i); f.IsExported() && known[f.Name] == "" {
				t.Errorf("%s.%s: not known to the run key (runKey)", typ.Name(), f.Name)
			}
		}
	}
}

// A run on packs that hold nothing (the first run, a CI job without a
// restored cache) makes its keys beside the load and the checks instead of
// before them (contentcache.Pack.Fresh); it reports what an uncached run
// does, and what it kept serves the next runs: the same tree is taken
// whole, and after an edit the unchanged clusters are reused.
func TestFreshPacksKeepWhatTheyServe(t *testing.T) {
	t.Parallel()
	checks := cachingChecks(t, policy.Options{Builtin: true})
	cfg := &config.Config{}
	for seed := uint64(1); seed <= 3; seed++ {
		rt := newRandomTree(t, seed)
		dir := t.TempDir()
		packed := func() (*Result, string, bool) {
			files := contentcache.Open(dir, "test", manifest.CacheFormat)
			results := contentcache.Open(dir, "test", ResultFormat)
			wasFresh := results.Fresh()
			req := Request{Options: project.Options{Paths: []string{rt.dir}, Config: cfg, Access: safefs.New(0, rt.dir), Cache: files}, Results: results, Runs: results}
			res, out := runReport(t, checks, req, true)
			for _, p := range []*contentcache.Pack{files, results} {
				if err := p.Close(); err != nil {
					t.Fatal(err)
				}
			}
			return res, out, wasFresh
		}
		_, want := wholeRun(t, checks, cfg, rt.dir, nil, nil)
		first, got, wasFresh := packed()
		if !wasFresh || first.WholeRun || first.Reused != 0 {
			t.Fatalf("seed %d: the first run was not a fresh one (fresh %v, whole %v, reused %d)", seed, wasFresh, first.WholeRun, first.Reused)
		}
		if got != want {
			t.Fatalf("seed %d: the fresh run differs\nfresh:\n%s\nuncached:\n%s", seed, got, want)
		}
		again, got, _ := packed()
		if !again.WholeRun || got != want {
			t.Fatalf("seed %d: the run after a fresh one was not taken whole (%v) or differs\n%s", seed, again.WholeRun, got)
		}
		name, _ := rt.editOne(t)
		_, want = wholeRun(t, checks, cfg, rt.dir, nil, nil)
		edited, got, _ := packed()
		if got != want {
			t.Fatalf("seed %d, after editing %s: differs\ncached:\n%s\nuncached:\n%s", seed, name, got, want)
		}
		if edited.WholeRun || edited.Reused == 0 {
			t.Errorf("seed %d, after editing %s: whole %v, %d clusters reused; want some reused", seed, name, edited.WholeRun, edited.Reused)
		}
	}
}
