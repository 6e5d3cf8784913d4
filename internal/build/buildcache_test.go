package build

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// countingStore is a manifest.Cache in memory that counts the builds it
// served.
type countingStore struct {
	mu   sync.Mutex
	m    map[string][]byte
	hits int
}

func (s *countingStore) Get(k string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	if ok && strings.HasPrefix(k, "kustomize-build/") {
		s.hits++
	}
	return v, ok
}

func (s *countingStore) Put(k string, v []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = v
}

// A build taken from the cache is the build kustomize gives: after an edit
// to a base resource, after a file appears that kustomize would refuse
// beside a kustomization, and with an entry that does not decode. An
// unchanged tree is served without running kustomize.
func TestBuildCacheGivesWhatKustomizeGives(t *testing.T) {
	for _, noFast := range []bool{true, false} {
		t.Run(fmt.Sprintf("NoFast=%v", noFast), func(t *testing.T) { testBuildCache(t, noFast) })
	}
}

func testBuildCache(t *testing.T, noFast bool) {
	root := t.TempDir()
	write := testtree.Writer(t, root)
	write("base/kustomization.yaml", "resources: [idms.yaml, deploy.yaml]\n")
	write("base/idms.yaml", testtree.ReleaseIDMS)
	write("base/deploy.yaml", testtree.AppDeployment)
	var dirs []string
	for i := 1; i <= 3; i++ {
		site := fmt.Sprintf("sites/s%d/", i)
		dirs = append(dirs, filepath.Join(root, "sites", fmt.Sprintf("s%d", i)))
		write(site+"kustomization.yaml", "resources: [../../base]\npatches:\n- path: mirror.yaml\n  target: {kind: ImageDigestMirrorSet, name: release}\n")
		write(site+"mirror.yaml", fmt.Sprintf("- op: add\n  path: /spec/imageDigestMirrors/-\n  value: {source: quay.io/site%d/apps, mirrors: [registry.site%d.example/apps]}\n", i, i))
	}
	store := &countingStore{m: map[string][]byte{}}
	run := func(cache manifest.Cache) string {
		t.Helper()
		opts := manifest.Options{}
		if cache != nil {
			opts.Cache = cache
		}
		c := New(Config{Graph: kustomization.NewGraph(), Files: kustomization.NewResolver(opts, filepath.ToSlash), Load: opts, NoFast: noFast})
		c.Run(dirs, 2)
		return describeBuilds(t, c, dirs)
	}
	same := func(what string) string {
		t.Helper()
		want := run(nil)
		for _, pass := range []string{"filling", "filled"} {
			if got := run(store); got != want {
				t.Fatalf("%s, %s cache:\n%s\nkustomize:\n%s", what, pass, got, want)
			}
		}
		return want
	}

	first := same("unchanged tree")
	hits := store.hits
	if hits < len(dirs) {
		t.Fatalf("an unchanged tree was served %d builds of %d from the cache", hits, len(dirs))
	}

	write("base/idms.yaml", strings.Replace(testtree.ReleaseIDMS, "mirror.example/ocp", "edited.example/ocp", 1))
	if edited := same("base resource edited"); edited == first || !strings.Contains(edited, "edited.example/ocp") {
		t.Fatalf("the edit is not in the build:\n%s", edited)
	}

	// kustomize refuses a directory holding two kustomization files: a
	// stored build must not hide the one that appeared.
	write("sites/s2/kustomization.yml", "resources: [../../base]\n")
	if refused := same("second kustomization file"); !strings.Contains(refused, "s2 err=") || strings.Contains(refused, "s2 err=<nil>") {
		t.Fatalf("kustomize did not refuse the directory:\n%s", refused)
	}
	if err := os.Remove(filepath.Join(root, "sites/s2/kustomization.yml")); err != nil {
		t.Fatal(err)
	}

	for k := range store.m {
		if strings.HasPrefix(k, "kustomize-build/") {
			store.m[k] = []byte("{not json")
		}
	}
	same("entries that do not decode")
}
