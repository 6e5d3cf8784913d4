package safefs

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// loopback is a server that counts the requests a build makes and answers
// each with a plausible manifest, so a fetch would succeed if allowed.
func loopback(t testing.TB) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fmt.Fprint(w, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  fetched: \"yes\"\n")
	}))
	t.Cleanup(s.Close)
	return s, &n
}

const configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"

// fetchingKustomizations names a URL in every field kustomize's loader
// fetches.
func fetchingKustomizations(url string) map[string]string {
	return map[string]string{
		"resources":                "resources:\n- cm.yaml\n- " + url + "/r.yaml\n",
		"patchesStrategicMerge":    "resources: [cm.yaml]\npatchesStrategicMerge:\n- " + url + "/p.yaml\n",
		"patches.path":             "resources: [cm.yaml]\npatches:\n- path: " + url + "/p.yaml\n",
		"patchesJson6902.path":     "resources: [cm.yaml]\npatchesJson6902:\n- target: {version: v1, kind: ConfigMap, name: cm}\n  path: " + url + "/p.json\n",
		"configMapGenerator.files": "configMapGenerator:\n- name: g\n  files:\n  - " + url + "/f\n",
		"configMapGenerator.key=":  "configMapGenerator:\n- name: g\n  files:\n  - key=" + url + "/f\n",
		"configMapGenerator.envs":  "configMapGenerator:\n- name: g\n  envs:\n  - " + url + "/e.env\n",
		"configMapGenerator.env":   "configMapGenerator:\n- name: g\n  env: " + url + "/e.env\n",
		"secretGenerator.files":    "secretGenerator:\n- name: g\n  files:\n  - " + url + "/f\n",
		"secretGenerator.envs":     "secretGenerator:\n- name: g\n  envs:\n  - " + url + "/e.env\n",
		"replacements.path":        "resources: [cm.yaml]\nreplacements:\n- path: " + url + "/r.yaml\n",
		"openapi.path":             "resources: [cm.yaml]\nopenapi:\n  path: " + url + "/schema.json\n",
		"transformers":             "resources: [cm.yaml]\ntransformers:\n- " + url + "/t.yaml\n",
		"generators":               "generators:\n- " + url + "/g.yaml\n",
		"configurations":           "resources: [cm.yaml]\nconfigurations:\n- " + url + "/c.yaml\n",
		"crds":                     "resources: [cm.yaml]\ncrds:\n- " + url + "/crd.json\n",
		"components":               "resources: [cm.yaml]\ncomponents:\n- " + url + "/comp\n",
	}
}

func buildOver(fs filesys.FileSystem, dir string) error {
	o := krusty.MakeDefaultOptions()
	o.LoadRestrictions = types.LoadRestrictionsRootOnly
	_, err := krusty.MakeKustomizer(o).Run(fs, dir)
	return err
}

func TestKustomizeFSNeverFetches(t *testing.T) {
	srv, requests := loopback(t)
	for field, kust := range fetchingKustomizations(srv.URL) {
		t.Run(field, func(t *testing.T) {
			dir := t.TempDir()
			testtree.WriteFile(t, filepath.Join(dir, "cm.yaml"), configMap)
			testtree.WriteFile(t, filepath.Join(dir, "kustomization.yaml"), kust)
			before := requests.Load()
			fs := NewKustomizeFS(New(0, dir))
			err := fs.Explain(buildOver(fs, dir))
			if got := requests.Load() - before; got != 0 {
				t.Fatalf("the build made %d requests to the loopback server", got)
			}
			var pe *PositionedError
			if !errors.As(err, &pe) || !errors.Is(err, ErrURL) || pe.Line == 0 {
				t.Fatalf("build error = %v, want a positioned URL refusal", err)
			}
			if !strings.Contains(err.Error(), "kustomization.yaml:") || !strings.Contains(err.Error(), srv.URL) {
				t.Errorf("the refusal should name the file, line and URL: %v", err)
			}
		})
	}
}

// The attack is real: over the plain disk filesystem the same
// kustomizations fetch, so the test above would fail without the layer.
func TestDiskFilesystemWouldFetch(t *testing.T) {
	srv, requests := loopback(t)
	for _, field := range []string{"patchesStrategicMerge", "configMapGenerator.files", "replacements.path"} {
		dir := t.TempDir()
		testtree.WriteFile(t, filepath.Join(dir, "cm.yaml"), configMap)
		testtree.WriteFile(t, filepath.Join(dir, "kustomization.yaml"), fetchingKustomizations(srv.URL)[field])
		before := requests.Load()
		_ = buildOver(filesys.MakeFsOnDisk(), dir)
		if requests.Load() == before {
			t.Errorf("%s: kustomize on disk made no request; the hostile case no longer exercises a fetch", field)
		}
	}
}

func TestKustomizeFSRefusesBasesOutsideTheRoot(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	testtree.WriteFile(t, filepath.Join(base, "outside/kustomization.yaml"), "resources: [secret.yaml]\n")
	testtree.WriteFile(t, filepath.Join(base, "outside/secret.yaml"), "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  token: s3cr3t\n")
	testtree.Link(t, filepath.Join(base, "outside"), filepath.Join(repo, "linked"))
	for _, kust := range []string{"resources: [../outside]\n", "resources: [linked]\n", "resources: [linked/secret.yaml]\n"} {
		dir := filepath.Join(repo, "overlay")
		testtree.WriteFile(t, filepath.Join(dir, "kustomization.yaml"), kust)
		fs := NewKustomizeFS(New(0, repo))
		err := buildOver(fs, dir)
		if err == nil {
			t.Errorf("%q: built a base outside the repository", kust)
		} else if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%q: the refusal carries the file's bytes: %v", kust, err)
		}
	}
}

func TestKustomizeFSChecksYAMLBounds(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "kustomization.yaml"), "resources: [laughs.yaml]\n")
	testtree.WriteFile(t, filepath.Join(dir, "laughs.yaml"), billionLaughs)
	fs := NewKustomizeFS(New(0, dir))
	err := fs.Explain(buildOver(fs, dir))
	if !errors.Is(err, ErrYAMLBounds) {
		t.Fatalf("build = %v, want the YAML bounds refusal", err)
	}
}

func TestKustomizeFSIsReadOnly(t *testing.T) {
	fs := NewKustomizeFS(New(0, t.TempDir()))
	if err := fs.WriteFile("x", nil); !errors.Is(err, ErrReadOnly) {
		t.Errorf("WriteFile = %v", err)
	}
	if err := fs.RemoveAll("x"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("RemoveAll = %v", err)
	}
}

// CleanedAbs answers as the disk does for every kind of path, whether the
// run has listed the tree (and answers from its listings) or not: a
// directory, a file, each through a linked directory, a linked file, a
// relative path, a missing one, and one whose name no listing holds.
func TestCleanedAbsIsTheDisks(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteAt(t, dir, map[string]string{"base/cm.yaml": configMap, "base/sub/x.yaml": configMap})
	for _, l := range [][2]string{{"base", "linked"}, {"base/cm.yaml", "cm-link.yaml"}} {
		if err := os.Symlink(filepath.Join(dir, l[0]), filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	paths := []string{dir, "base", "base/cm.yaml", filepath.Join(dir, "base/sub"), "linked", "linked/cm.yaml", "linked/sub/x.yaml",
		"cm-link.yaml", "base/missing.yaml", "missing/x.yaml", "base/sub/..", "base/./cm.yaml"}
	disk := filesys.MakeFsOnDisk()
	for _, listed := range []bool{false, true} {
		root := New(0, dir)
		if listed {
			root.Prefetch(dir, nil)
		}
		k := NewKustomizeFS(root)
		for _, p := range paths {
			wd, wf, werr := disk.CleanedAbs(p)
			gd, gf, gerr := k.CleanedAbs(p)
			if gd != wd || gf != wf || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
				t.Errorf("listed %v, %s: (%q, %q, %v), the disk says (%q, %q, %v)", listed, p, gd, gf, gerr, wd, wf, werr)
			}
		}
	}
}
