package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// TestLooseFileInKustomizationDir: a manifest sitting in a kustomization
// directory that its kustomization does not list is reported to the
// clusters reading that kustomization (kustomize does not apply it); it
// does not join, and rename, the plain cluster of clusters/lab.
func TestLooseFileInKustomizationDir(t *testing.T) {
	root := copyTree(t, "testdata/gitops")
	icsp, err := os.ReadFile(filepath.Join(root, "overlays/dev/icsp-legacy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	testtree.WriteFile(t, filepath.Join(root, "overlays/prod/old-icsp.yaml"), string(icsp))
	res := discover(t, root)
	var names []string
	for _, c := range res.Clusters {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, " "); got != "overlays/dev overlays/prod clusters/lab" {
		t.Fatalf("clusters %s", got)
	}
	lab := byName(t, res, "clusters/lab")
	if len(lab.Objects) != 2 || len(lab.Problems) != 0 {
		t.Errorf("clusters/lab: %s, problems %v", summary(lab), lab.Problems)
	}
	if want := []string{filepath.ToSlash(filepath.Join(root, "clusters/lab"))}; strings.Join(lab.Paths, " ") != want[0] {
		t.Errorf("clusters/lab paths %v, want %v", lab.Paths, want)
	}
	prod := byName(t, res, "overlays/prod")
	if len(prod.Objects) != 2 || len(prod.Problems) != 1 {
		t.Fatalf("overlays/prod: %s, problems %v", summary(prod), prod.Problems)
	}
	p := prod.Problems[0]
	want := filepath.ToSlash(filepath.Join(root, "overlays/prod/old-icsp.yaml")) + " is not listed in " +
		filepath.ToSlash(filepath.Join(root, "overlays/prod/kustomization.yaml")) + ": kustomize does not apply it"
	if p.Code != "not-in-kustomization" || !p.Warning || p.Message != want || !strings.HasSuffix(p.Pos.File, "overlays/prod/old-icsp.yaml") {
		t.Errorf("problem %+v\nwant code not-in-kustomization, a warning: %s", p, want)
	}
	if dev := byName(t, res, "overlays/dev"); len(dev.Problems) != 0 {
		t.Errorf("overlays/dev does not read overlays/prod: %v", dev.Problems)
	}
}

// TestPlainDirectories: files no kustomization reaches under a layout
// directory (clusters/<name>) form that directory's cluster, with its
// subdirectories, named after it.
func TestPlainDirectories(t *testing.T) {
	root := copyTree(t, "testdata/gitops")
	lab, err := os.ReadFile(filepath.Join(root, "clusters/lab/idms.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	testtree.WriteFile(t, filepath.Join(root, "clusters/lab/mirrors/more.yaml"), strings.Replace(string(lab), "name: lab", "name: more", 1))
	testtree.WriteFile(t, filepath.Join(root, "clusters/edge/idms.yaml"), strings.Replace(string(lab), "name: lab", "name: edge", 1))
	// A directory inside an overlay that the overlay does not reference is
	// no part of it, nor of a plain cluster above the overlay.
	testtree.WriteFile(t, filepath.Join(root, "overlays/prod/unused/idms.yaml"), strings.Replace(string(lab), "name: lab", "name: unused", 1))
	res := discover(t, root)
	var got []string
	for _, c := range res.Clusters {
		got = append(got, summaryRel(c, root))
		if c.Source != FromKustomization && len(c.Problems) != 0 {
			t.Errorf("%s: %v", c.Name, c.Problems)
		}
	}
	want := []string{
		"overlays/dev [kustomization] ImageDigestMirrorSet/release ImageContentSourcePolicy/legacy-tools",
		"overlays/prod [kustomization] ImageDigestMirrorSet/release ImageDigestMirrorSet/apps",
		"clusters/edge [plain directory] ImageDigestMirrorSet/edge",
		"clusters/lab [plain directory] ImageDigestMirrorSet/lab Image/cluster ImageDigestMirrorSet/more",
		"overlays/prod/unused [plain directory] ImageDigestMirrorSet/unused",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("clusters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for file, want := range map[string]string{
		"clusters/lab/mirrors/new.yaml": "clusters/lab",
		"clusters/edge/new.yaml":        "clusters/edge",
		"clusters/new/new.yaml":         "",
	} {
		var in []string
		for _, c := range res.Clusters {
			if c.Includes(filepath.Join(root, file)) {
				in = append(in, c.Name)
			}
		}
		if strings.Join(in, " ") != want {
			t.Errorf("%s: in %v, want %s", file, in, want)
		}
	}

	// A loose file at the top of the tree is the tree's own plain cluster;
	// it does not take the layout clusters in: grouping never depends on
	// what else the tree holds.
	testtree.WriteFile(t, filepath.Join(root, "top.yaml"), strings.Replace(string(lab), "name: lab", "name: top", 1))
	res = discover(t, root)
	var plain []string
	for _, c := range res.Clusters {
		if c.Source == FromPlain {
			plain = append(plain, summaryRel(c, root))
		}
	}
	want = []string{
		filepath.ToSlash(root) + " [plain directory] ImageDigestMirrorSet/top",
		"clusters/edge [plain directory] ImageDigestMirrorSet/edge",
		"clusters/lab [plain directory] ImageDigestMirrorSet/lab Image/cluster ImageDigestMirrorSet/more",
		"overlays/prod/unused [plain directory] ImageDigestMirrorSet/unused",
	}
	if strings.Join(plain, "\n") != strings.Join(want, "\n") {
		t.Errorf("with a file at the top:\n%s\nwant:\n%s", strings.Join(plain, "\n"), strings.Join(want, "\n"))
	}
}

func summaryRel(c *Cluster, root string) string {
	var objs []string
	for _, o := range c.Objects {
		objs = append(objs, o.Ref())
	}
	name := strings.TrimPrefix(c.Name, filepath.ToSlash(root)+"/")
	return name + " [" + string(c.Source) + "] " + strings.Join(objs, " ")
}

// TestGeneratorManifestsBesideKustomization: the manifests a PolicyGenerator
// reads from its kustomization's directory, which the kustomization does
// not list, or from a directory below it (the ACM policy-collection
// layouts), are applied through the generator: no not-in-kustomization
// warning and no plain cluster of their own; they are the cluster's
// inputs, and a template the generator finds in one is the cluster's
// problem. A file beside them that nothing reads is still reported.
func TestGeneratorManifestsBesideKustomization(t *testing.T) {
	root := testtree.Write(t, map[string]string{
		"policies/kustomization.yaml": "generators:\n  - generator.yaml\n",
		"policies/generator.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
metadata:
  name: mirrors
policyDefaults:
  namespace: policies
policies:
  - name: mirrors
    manifests:
      - path: idms.yaml
      - path: templated.yaml
  - name: hub
    manifests:
      - path: input/
`,
		// A directory of manifests below the kustomization: read by the
		// generator, it is no plain cluster of its own.
		"policies/input/image.yaml": "apiVersion: config.openshift.io/v1\nkind: Image\nmetadata:\n  name: cluster\nspec:\n  registrySources:\n    blockedRegistries: [untrusted.example.com]\n",
		"policies/idms.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: mirrors
spec:
  imageDigestMirrors:
    - source: registry.example.com/app
      mirrors: [mirror.example.com/app]
`,
		"policies/templated.yaml": "object-templates-raw: |\n  {{- range (lookup \"v1\" \"Namespace\" \"\" \"\").items }}\n  {{- end }}\n",
		"policies/stray.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: stray
spec:
  imageDigestMirrors:
    - source: registry.example.com/other
      mirrors: [mirror.example.com/other]
`,
	})
	res := discover(t, root)
	c := byName(t, res, "policies")
	var probs []string
	for _, p := range c.Problems {
		probs = append(probs, filepath.Base(p.Pos.File)+" "+p.Code)
	}
	if want := "templated.yaml policy-template stray.yaml not-in-kustomization"; strings.Join(probs, " ") != want {
		t.Errorf("problems %v, want %s", c.Problems, want)
	}
	var names []string
	for _, cl := range res.Clusters {
		names = append(names, cl.Name)
	}
	if want := "policies policies/Policy/policies/hub policies/Policy/policies/mirrors"; strings.Join(names, " ") != want {
		t.Errorf("clusters %v, want %s", names, want)
	}
	for _, f := range []string{"idms.yaml", "templated.yaml", "input/image.yaml"} {
		if !c.Includes(filepath.Join(root, "policies", f)) {
			t.Errorf("%s is not an input of the cluster: %v", f, c.Inputs)
		}
	}
}
