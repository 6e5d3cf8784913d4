package build

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/kustomize/kyaml/openapi"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// TestFilterDocuments: documents are kept byte for byte, in order, and a
// stream of several documents keeps at least two.
func TestFilterDocuments(t *testing.T) {
	need := manifest.NeedAll()
	for _, tc := range []struct{ in, want string }{
		{"kind: Deployment\n", ""},
		{"kind: ImageDigestMirrorSet\n", "kind: ImageDigestMirrorSet\n"},
		{"kind: A\n---\nkind: ImageTagMirrorSet\n---\nkind: B\n", "kind: ImageTagMirrorSet\n---\n"},
		{"kind: ImageTagMirrorSet\n---\nkind: B\n", "kind: ImageTagMirrorSet\n---\n"},
		{"kind: A\n---\nkind: Image\n", "\n---\nkind: Image\n"},
		{"kind: A\n--- x\nkind: Image\n", "kind: A\n--- x\nkind: Image\n"},
		{"kind: A\n---\nkind: B\n", ""},
	} {
		if got := string(filterDocuments([]byte(tc.in), need, manifest.UnmodelledNone)); got != tc.want {
			t.Errorf("filterDocuments(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestNameRefKindsCurrent: nameRefKinds is every kind of kustomize's
// default name-reference configuration, as the module in go.mod has it.
func TestNameRefKindsCurrent(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/kustomize/api").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "internal/konfig/builtinpluginconsts/namereference.go"))
	if err != nil {
		t.Skipf("kustomize source: %v", err)
	}
	var kinds []string
	for _, m := range regexp.MustCompile(`kind: (\w+)`).FindAllStringSubmatch(string(data), -1) {
		if !slices.Contains(kinds, m[1]) {
			kinds = append(kinds, m[1])
		}
	}
	sort.Strings(kinds)
	have := slices.Clone(nameRefKinds)
	sort.Strings(have)
	if strings.Join(kinds, " ") != strings.Join(have, " ") {
		t.Errorf("nameRefKinds:\n%s\nkustomize's:\n%s", strings.Join(have, " "), strings.Join(kinds, " "))
	}
}

// TestParallelBuilds: overlays built on several workers give what one
// worker gives, including a closure that sets its own OpenAPI schema
// (built alone, the default schema restored after it), and so do the full
// builds Start begins before Run finishes them. Run with -race:
// kustomize's schema is process-wide state.
func TestParallelBuilds(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"base/kustomization.yaml": "resources: [idms.yaml, deploy.yaml]\n",
		"base/idms.yaml":          testtree.ReleaseIDMS,
		"base/deploy.yaml":        testtree.AppDeployment,
	}
	var dirs []string
	for i := 1; i <= 8; i++ {
		site := fmt.Sprintf("sites/s%d/", i)
		dirs = append(dirs, filepath.Join(root, "sites", fmt.Sprintf("s%d", i)))
		files[site+"kustomization.yaml"] = "resources: [../../base]\npatches:\n- path: mirror.yaml\n  target: {kind: ImageDigestMirrorSet, name: release}\n"
		files[site+"mirror.yaml"] = fmt.Sprintf("- op: add\n  path: /spec/imageDigestMirrors/-\n  value: {source: quay.io/site%d/apps, mirrors: [registry.site%d.example/apps]}\n", i, i)
		if i%4 == 0 {
			// A full build (a workload patch) with its own schema.
			files[site+"kustomization.yaml"] = "openapi:\n  path: schema.json\nresources: [../../base]\npatches:\n- patch: '{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\", \"metadata\": {\"name\": \"app\"}, \"spec\": {\"replicas\": 3}}'\n"
			files[site+"schema.json"] = `{"definitions": {}}`
		}
	}
	testtree.WriteAt(t, root, files)
	run := func(w int, early bool) string {
		c := New(Config{Graph: kustomization.NewGraph(), Files: kustomization.NewResolver(manifest.Options{}, filepath.ToSlash)})
		if early {
			// As a load starts them: the full builds begun at once, the
			// fast ones (the sites patching only the mirror set) left
			// to Run.
			wait := c.Start(dirs, w)
			wait()
			for i, dir := range dirs {
				e := c.entry(dir)
				if full := (i+1)%4 == 0; (e.early != nil) != full {
					t.Errorf("%s: begun early %v, a full build %v", dir, e.early != nil, full)
				}
			}
		}
		c.Run(dirs, w)
		for _, dir := range dirs {
			if err := c.Get(dir).Err; err != nil {
				t.Errorf("%s: %v", dir, err)
			}
		}
		return describeBuilds(t, c, dirs)
	}
	// Start as a fresh process does, schema unparsed, and build in
	// parallel first: the first builds race to parse the schema.
	openapi.ResetOpenAPI()
	schemaGate.ready = false
	var many []string
	for i := range 4 {
		many = append(many, run(4, i%2 == 1))
	}
	one := run(1, false)
	for i, m := range many {
		if m != one {
			t.Fatalf("4 workers (full builds begun early: %v):\n%s\n1 worker:\n%s", i%2 == 1, m, one)
		}
	}
	if strings.Contains(one, "problem") {
		t.Errorf("problems:\n%s", one)
	}
	if strings.Count(one, "ImageDigestMirrorSet/release@") != len(dirs) {
		t.Errorf("not every site built its mirror set:\n%s", one)
	}
}

// describeBuilds prints the builds of dirs (objects with positions and
// content, problems, errors) for comparing two ways of building them.
func describeBuilds(t *testing.T, c *Cache, dirs []string) string {
	t.Helper()
	var b strings.Builder
	for _, dir := range dirs {
		r := c.Get(dir)
		fmt.Fprintf(&b, "== %s err=%v\n", dir, r.Err)
		for _, o := range r.Objects {
			content, err := json.Marshal(o.Content)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s@%s %s\n", o.Ref(), o.Position(), content)
		}
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "problem %s %s\n", p.Code, p)
		}
	}
	return b.String()
}

// Builds Start began and Discard forgot are built again by Run, and give
// what builds Run alone made give.
func TestDiscardedEarlyBuildsAreBuiltAgain(t *testing.T) {
	root := t.TempDir()
	testtree.WriteAt(t, root, map[string]string{
		"base/kustomization.yaml": "resources: [idms.yaml, deploy.yaml]\n",
		"base/idms.yaml":          testtree.ReleaseIDMS,
		"base/deploy.yaml":        testtree.AppDeployment,
		"site/kustomization.yaml": "resources: [../base]\npatches:\n- patch: '{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\", \"metadata\": {\"name\": \"app\"}, \"spec\": {\"replicas\": 3}}'\n",
	})
	dirs := []string{filepath.Join(root, "site")}
	run := func(discard bool) (string, int) {
		log := &buildCounter{}
		opts := manifest.Options{Cache: log}
		c := New(Config{Graph: kustomization.NewGraph(), Files: kustomization.NewResolver(opts, filepath.ToSlash), Load: opts})
		c.Start(dirs, 2)()
		if c.entry(dirs[0]).early == nil {
			t.Fatal("a full build was not begun early")
		}
		if discard {
			c.Discard()
		}
		c.Run(dirs, 2)
		return describeBuilds(t, c, dirs), log.n
	}
	kept, once := run(false)
	again, twice := run(true)
	if again != kept || once != 1 || twice != 2 {
		t.Errorf("kustomize ran %d times with the early build kept, %d with it discarded (want 1 and 2):\n%s\nkept:\n%s", once, twice, again, kept)
	}
}

// buildCounter is a loader cache that stores nothing and counts the
// kustomize runs it is told of (build.BuildLog).
type buildCounter struct {
	mu sync.Mutex
	n  int
}

func (*buildCounter) Get(string) ([]byte, bool) { return nil, false }
func (*buildCounter) Put(string, []byte)        {}
func (b *buildCounter) Built(string, []string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n++
}

// Builds of ordinary closures run at once: two of them each wait, inside
// the gate, for the other to be inside too; a gate that lets one in only
// when the other has left never lets the first one out.
func TestOrdinaryBuildsRunTogether(t *testing.T) {
	var inside sync.WaitGroup
	inside.Add(2)
	met := make(chan bool, 2)
	for range 2 {
		go runBuild(false, func() {
			inside.Done()
			done := make(chan struct{})
			go func() { inside.Wait(); close(done) }()
			select {
			case <-done:
				met <- true
			case <-time.After(30 * time.Second):
				met <- false
			}
		})
	}
	for range 2 {
		if !<-met {
			t.Fatal("a build waited for another to finish before it could start")
		}
	}
}
