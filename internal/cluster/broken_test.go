package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// copyTree copies a testdata tree into a temporary directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestBrokenKustomization: a missing resource and a patch that cannot
// apply are positioned problems of their own cluster; the others build.
func TestBrokenKustomization(t *testing.T) {
	root := copyTree(t, "testdata/gitops")
	testtree.WriteFile(t, filepath.Join(root, "overlays/missing/kustomization.yaml"), `resources:
  - ../../base
  - does-not-exist.yaml
`)
	testtree.WriteFile(t, filepath.Join(root, "overlays/badpatch/kustomization.yaml"), `resources:
  - ../../base
patches:
  - path: bad.yaml
    target:
      kind: ImageDigestMirrorSet
`)
	testtree.WriteFile(t, filepath.Join(root, "overlays/badpatch/bad.yaml"), `- op: replace
  path: /spec/nothing/here
  value: x
`)
	testtree.WriteFile(t, filepath.Join(root, "overlays/remote/kustomization.yaml"), `resources:
  - https://github.com/example/mirrors//base?ref=v1
`)
	// A helmCharts entry: kustomize would run helm (only with
	// --enable-helm); mirrorlint says what it does instead, on the entry.
	testtree.WriteFile(t, filepath.Join(root, "overlays/helm/kustomization.yaml"), `resources:
  - ../../base
helmCharts:
  - name: mirror-config
    repo: https://charts.example.com
    version: 1.0.0
`)
	// A configMapGenerator item reading a URL: kustomize fetches it over
	// HTTP; the build goes on without the ConfigMap it makes.
	testtree.WriteFile(t, filepath.Join(root, "overlays/fetched/kustomization.yaml"), `resources:
  - ../../base
configMapGenerator:
  - name: dashboard
    files:
      - https://example.com/grafana/dashboard.json
`)
	res := discover(t, root)
	want := map[string]string{
		"overlays/missing":  "overlays/missing/kustomization.yaml:3:5",
		"overlays/badpatch": "overlays/badpatch/kustomization.yaml:4:5",
		"overlays/remote":   "overlays/remote/kustomization.yaml:2:5",
		"overlays/helm":     "overlays/helm/kustomization.yaml:4:5",
		"overlays/fetched":  "overlays/fetched/kustomization.yaml:4:5",
	}
	for name, at := range want {
		c := byName(t, res, name)
		if len(c.Problems) != 1 || !strings.HasSuffix(c.Problems[0].Pos.String(), at) {
			t.Errorf("%s: problems %v, want one at %s", name, c.Problems, at)
			continue
		}
		t.Logf("%s: %s", name, c.Problems[0])
	}
	if msg := byName(t, res, "overlays/helm").Problems[0].Message; !strings.Contains(msg, `helmCharts entry "mirror-config" inflates a Helm chart, which mirrorlint does not do`) || strings.Contains(msg, "must specify --enable-helm") {
		t.Errorf("helmCharts message: %s", msg)
	}
	// The remote resource and the chart are left out of the build, which
	// goes on: the base's objects are the overlays' own, and the notice
	// is a warning that leaves the input incomplete (nothing rendered).
	if msg := byName(t, res, "overlays/fetched").Problems[0].Message; !strings.Contains(msg, `configMapGenerator entry "dashboard" reads "https://example.com/grafana/dashboard.json", which kustomize fetches over HTTP`) {
		t.Errorf("configMapGenerator message: %s", msg)
	}
	base := "ImageDigestMirrorSet/release@" + filepath.Join(root, "base/idms-release.yaml") + ":2:1"
	for name, objects := range map[string]string{"overlays/remote": "", "overlays/helm": base, "overlays/fetched": base} {
		c := byName(t, res, name)
		p := c.Problems[0]
		if p.Code != "entry-not-built" || !p.Warning || !p.Incomplete || summary(c) != name+" [kustomization] "+objects {
			t.Errorf("%s: %s, %+v; want the base's object and an incomplete warning", name, summary(c), p)
		}
	}
	for _, name := range []string{"overlays/prod", "overlays/dev", "clusters/lab"} {
		if c := byName(t, res, name); len(c.Problems) != 0 || len(c.Objects) != 2 {
			t.Errorf("%s: problems %v, %d objects", name, c.Problems, len(c.Objects))
		}
	}
}

// TestDeclaredClusters: the config wins over discovery; a shared base is
// built into each cluster that names an overlay; settings are per cluster.
func TestDeclaredClusters(t *testing.T) {
	cfg := &config.Config{Path: "testdata/gitops/.mirrorlint.yaml", Clusters: []config.Cluster{
		{Name: "prod", Paths: []string{"overlays/prod"}, OpenShiftVersion: "4.14"},
		{Name: "lab", Paths: []string{"clusters/lab", "base"}},
	}}
	res, err := Discover(Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Clusters {
		got = append(got, summary(c)+" "+c.OpenShiftVersion)
	}
	want := []string{
		"prod [config] ImageDigestMirrorSet/release@testdata/gitops/base/idms-release.yaml:2:1 ImageDigestMirrorSet/apps@testdata/gitops/overlays/prod/idms-apps.yaml:1:1 4.14",
		"lab [config] ImageDigestMirrorSet/lab@testdata/gitops/clusters/lab/idms.yaml:1:1 Image/cluster@testdata/gitops/clusters/lab/image.yaml:1:1 ImageDigestMirrorSet/release@testdata/gitops/base/idms-release.yaml:2:1 ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("clusters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := Discover(Options{Config: cfg, Paths: []string{"testdata/gitops/clusters"}}); err != nil {
		t.Errorf("filtering by path: %v", err)
	}
}

// TestIncludes: a change in the base selects every overlay built on it; a
// change in an overlay only that overlay; a new file in a plain directory
// that directory's cluster.
func TestIncludes(t *testing.T) {
	res := discover(t, "testdata/gitops")
	cases := map[string]string{
		"testdata/gitops/base/idms-release.yaml":                  "overlays/dev overlays/prod",
		"testdata/gitops/base/kustomization.yaml":                 "overlays/dev overlays/prod",
		"testdata/gitops/overlays/prod/never-contact-source.yaml": "overlays/prod",
		"testdata/gitops/overlays/dev/icsp-legacy.yaml":           "overlays/dev",
		"testdata/gitops/clusters/lab/new-file.yaml":              "clusters/lab",
		"README.md": "",
	}
	for file, want := range cases {
		var got []string
		for _, c := range res.Clusters {
			if c.Includes(file) {
				got = append(got, c.Name)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %v, want %s", file, got, want)
		}
	}
}

// TestMissingEntryTypo: a resources entry that names no file, where the
// directory holds a file one or two letters away, names that file.
func TestMissingEntryTypo(t *testing.T) {
	root := copyTree(t, "testdata/gitops")
	testtree.WriteFile(t, filepath.Join(root, "overlays/typo/kustomization.yaml"), `resources:
  - ../../base
  - 01_cofigmap_workers.yaml
  - unrelated.yaml
`)
	testtree.WriteFile(t, filepath.Join(root, "overlays/typo/01_configmap_workers.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: workers}\n")
	res := discover(t, root)
	c := byName(t, res, "overlays/typo")
	const want = `resources entry "01_cofigmap_workers.yaml" does not exist (did you mean "01_configmap_workers.yaml"?), so kustomize cannot build this cluster and it is not checked`
	// unrelated.yaml is missing too, and listed: one run shows every fix.
	if len(c.Problems) != 2 || !strings.HasSuffix(c.Problems[0].Pos.String(), "overlays/typo/kustomization.yaml:3:5") || !strings.HasPrefix(c.Problems[0].Message, want) ||
		!strings.HasSuffix(c.Problems[1].Pos.String(), "overlays/typo/kustomization.yaml:4:5") || c.Problems[1].Message != `resources entry "unrelated.yaml" does not exist: kustomize cannot build this` {
		t.Errorf("problems %v, want one at overlays/typo/kustomization.yaml:3:5: %s, and unrelated.yaml's at 4:5", c.Problems, want)
	}
	if got := kustomization.Nearby(filepath.Join(root, "overlays/typo"), "unrelated.yaml"); got != "" {
		t.Errorf("suggestion for unrelated.yaml: %q", got)
	}
}

// TestMissingEntryInBase: a file missing two bases down (overlay → default
// → manager, as an operator's config/ tree nests them) is reported at the
// entry naming it, in the base's kustomization, not at the entry naming
// the base: the base's directory is a prefix of the file's path in
// kustomize's message.
func TestMissingEntryInBase(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"config/debug/kustomization.yaml":   "resources:\n  - ../default\n",
		"config/default/kustomization.yaml": "resources:\n  - ../manager\n",
		"config/manager/kustomization.yaml": "resources:\n  - manager.yaml\n  - env-config.yaml\n",
		"config/manager/manager.yaml":       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: manager}\n",
	} {
		testtree.WriteFile(t, filepath.Join(root, name), text)
	}
	c := byName(t, discover(t, root), "config/debug")
	const want = `resources entry "env-config.yaml" does not exist, so kustomize cannot build this cluster`
	if len(c.Problems) != 1 || !strings.HasSuffix(c.Problems[0].Pos.String(), "config/manager/kustomization.yaml:3:5") || !strings.HasPrefix(c.Problems[0].Message, want) {
		t.Errorf("problems %v, want one at config/manager/kustomization.yaml:3:5: %s", c.Problems, want)
	}
}

// TestEveryMissingEntry: kustomize stops at the first entry naming no file;
// the others are listed too, each at its line, so one run shows every fix.
// A kustomization that does not parse is reported once, as the loader's
// syntax error.
func TestEveryMissingEntry(t *testing.T) {
	root := t.TempDir()
	testtree.WriteFile(t, filepath.Join(root, "gitops/kustomization.yaml"), "resources:\n  - one.yaml\n  - first-absent.yaml\n  - second-absent.yaml\n")
	testtree.WriteFile(t, filepath.Join(root, "gitops/one.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: one}\n")
	testtree.WriteFile(t, filepath.Join(root, "jinja/kustomization.yaml"), "resources:\n{% for s in sites %}\n- {{ s }}.yaml\n{% endfor %}\n")
	res := discover(t, root)
	var got []string
	for _, c := range res.Clusters {
		for _, p := range c.Problems {
			rel, _ := filepath.Rel(root, p.Pos.File)
			got = append(got, fmt.Sprintf("%s:%d:%d %s", filepath.ToSlash(rel), p.Pos.Line, p.Pos.Column, strings.SplitN(p.Message, ",", 2)[0]))
		}
	}
	want := []string{
		`gitops/kustomization.yaml:3:5 resources entry "first-absent.yaml" does not exist`,
		`gitops/kustomization.yaml:4:5 resources entry "second-absent.yaml" does not exist: kustomize cannot build this`,
		`jinja/kustomization.yaml:2:1 YAML syntax error: found character that cannot start any token (nothing after this error in the file was read); the file looks like a Helm/Jinja template ({{ }}): lint the rendered output instead`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPatchWithoutTarget: kustomize's refusal of a patch whose target the
// base does not hold names only the target; it is placed on the base's
// patch entry that names it (by the patch's own kind and name, or by its
// target), not on the overlay's entry naming the base.
func TestPatchWithoutTarget(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"overlays/east/kustomization.yaml": "resources:\n  - ../../base\n",
		"base/kustomization.yaml":          "resources:\n  - image.yaml\npatches:\n  - path: image-patch.yaml\n  - path: ingress-tls.yaml\n",
		"base/image.yaml":                  "apiVersion: config.openshift.io/v1\nkind: Image\nmetadata: {name: cluster}\nspec: {}\n",
		"base/image-patch.yaml":            "apiVersion: config.openshift.io/v1\nkind: Image\nmetadata: {name: cluster}\nspec: {allowedRegistriesForImport: []}\n",
		"base/ingress-tls.yaml":            "apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata:\n  name: default\n  namespace: openshift-ingress-operator\nspec: {}\n",
	} {
		testtree.WriteFile(t, filepath.Join(root, name), text)
	}
	c := byName(t, discover(t, root), "overlays/east")
	const want = `this patch's target IngressController/default is not among the objects of `
	if len(c.Problems) != 1 || !strings.HasSuffix(c.Problems[0].Pos.String(), "base/kustomization.yaml:5:5") || !strings.HasPrefix(c.Problems[0].Message, want) {
		t.Errorf("problems %v, want one at base/kustomization.yaml:5:5: %s", c.Problems, want)
	}
}

// TestResourceFileCause: a resource file kustomize cannot read as a file
// it then tries as a directory; the message keeps the first failure (the
// file's own), not the fallback's "file is not directory".
func TestResourceFileCause(t *testing.T) {
	root := t.TempDir()
	testtree.WriteFile(t, filepath.Join(root, "base/kustomization.yaml"), "resources:\n  - storageclasses.yaml\n")
	testtree.WriteFile(t, filepath.Join(root, "base/storageclasses.yaml"), "apiVersion: storage.k8s.io/v1\nKind: StorageClass\nmetadata:\n  name: fast\n")
	c := byName(t, discover(t, root), "base")
	if len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Message, "missing kind in object") || strings.Contains(c.Problems[0].Message, "file is not directory") {
		t.Errorf("problems %v, want the file's own failure", c.Problems)
	}
}

// TestLeftOutEntries: a remote component and a Helm chart in a base are
// left out of every build of it; a patch whose target only they could add
// fails the build, and the error says what it was built without instead
// of telling to add the object to the resources.
func TestLeftOutEntries(t *testing.T) {
	root := copyTree(t, "testdata/gitops")
	testtree.WriteFile(t, filepath.Join(root, "base/kustomization.yaml"), `resources:
  - idms-release.yaml
components:
  - github.com/example/catalog/components/mirrors?ref=v2
`)
	testtree.WriteFile(t, filepath.Join(root, "overlays/chart/kustomization.yaml"), `resources:
  - ../../base
helmCharts:
  - name: registry
    repo: https://charts.example.com
patches:
  - patch: |-
      $patch: delete
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: registry}
`)
	res := discover(t, root)
	for _, name := range []string{"overlays/prod", "overlays/dev"} {
		c := byName(t, res, name)
		if len(c.Problems) != 1 || c.Problems[0].Code != "entry-not-built" || c.Problems[0].Pos.Line != 4 || len(c.Objects) != 2 {
			t.Errorf("%s: %s, problems %v; want its objects and the component's notice at base/kustomization.yaml:4", name, summary(c), c.Problems)
		}
	}
	c := byName(t, res, "overlays/chart")
	var errs []string
	for _, p := range c.Problems {
		if !p.Warning {
			errs = append(errs, p.String())
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "overlays/chart/kustomization.yaml:7:5") ||
		!strings.Contains(errs[0], `it builds without "registry", "github.com/example/catalog/components/mirrors?ref=v2"`) ||
		strings.Contains(errs[0], "add the object to its resources") {
		t.Errorf("overlays/chart: errors %q; want one at the patch saying what the build left out", errs)
	}
}

// A Component no kustomization includes is a cluster of its own, built
// as kustomize builds it; when that build fails (a replacement whose
// source an including kustomization would hold), it is a warning that it
// was not checked, not an error of the tree. An overlay's own failure
// stays an error.
func TestLoneComponentBuildFails(t *testing.T) {
	root := copyTree(t, "testdata/gitops")
	testtree.WriteFile(t, filepath.Join(root, "components/truststore/kustomization.yaml"), `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
resources: [secret.yaml]
replacements:
- source: {kind: ConfigMap, name: truststore, fieldPath: data.password}
  targets:
  - select: {kind: Secret, name: truststore}
    fieldPaths: [stringData.password]
`)
	testtree.WriteFile(t, filepath.Join(root, "components/truststore/secret.yaml"), "apiVersion: v1\nkind: Secret\nmetadata: {name: truststore}\nstringData: {password: x}\n")
	testtree.WriteFile(t, filepath.Join(root, "overlays/lone/kustomization.yaml"), `resources: [../../base, secret.yaml]
replacements:
- source: {kind: ConfigMap, name: truststore, fieldPath: data.password}
  targets:
  - select: {kind: Secret, name: truststore}
    fieldPaths: [stringData.password]
`)
	testtree.WriteFile(t, filepath.Join(root, "overlays/lone/secret.yaml"), "apiVersion: v1\nkind: Secret\nmetadata: {name: truststore}\nstringData: {password: x}\n")
	res := discover(t, root)
	c := byName(t, res, "components/truststore")
	if len(c.Problems) != 1 || !c.Problems[0].Warning || !c.Problems[0].Incomplete || !strings.Contains(c.Problems[0].Message, "this Component is included by no kustomization of the tree") {
		t.Errorf("components/truststore: problems %+v, want one incomplete warning saying it is built alone", c.Problems)
	}
	// A file it names that does not exist is an error, included or not.
	testtree.WriteFile(t, filepath.Join(root, "components/typo/kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [secrets.yaml]\n")
	res = discover(t, root)
	if c := byName(t, res, "components/typo"); len(c.Problems) != 1 || c.Problems[0].Warning || !strings.Contains(c.Problems[0].Message, `"secrets.yaml" does not exist`) {
		t.Errorf("components/typo: problems %+v, want the missing file as an error", c.Problems)
	}
	o := byName(t, res, "overlays/lone")
	if len(o.Problems) != 1 || o.Problems[0].Warning || strings.Contains(o.Problems[0].Message, "this Component is included") ||
		o.Problems[0].Pos.Line != 3 || o.Problems[0].Pos.Column != 3 || !strings.HasPrefix(o.Problems[0].Message, "this replacement's source ConfigMap/truststore is not among the objects of ") {
		t.Errorf("overlays/lone: problems %+v, want the build failure as an error at the replacement naming the source", o.Problems)
	}
}
