package ztp

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// kustomizedGen is a PolicyGenerator whose manifest path is a directory
// holding a kustomization, with a patch of the one object it builds.
const kustomizedGen = `apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
metadata:
  name: g
policyDefaults:
  namespace: fleet
policies:
  - name: mirrors
    manifests:
      - path: built
        patches:
          - metadata:
              labels:
                team: a
`

// expandKustomized expands kustomizedGen with the directory built/ holding
// a kustomization, built by k.
func expandKustomized(t *testing.T, k Kustomizer) (string, []*Policy, []Problem) {
	t.Helper()
	dir := testtree.Write(t, map[string]string{
		"built/kustomization.yaml": "resources: [idms.yaml]\n",
		"built/idms.yaml":          "kind: ImageDigestMirrorSet\n",
	})
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(kustomizedGen), &doc); err != nil {
		t.Fatal(err)
	}
	pols, probs := Expand("hub/gen.yaml", &doc, &Dirs{Dir: dir, Shown: "hub", Kustomize: k})
	return dir, pols, probs
}

// A manifest directory holding a kustomization delivers what the build
// makes of it, as the generator takes it: each node in the file the build
// placed it in (named as positions show files), a node it could not place
// on the path entry, and the entry's patches applied on top. Without a
// build, what it delivers is an info saying how to lint it.
func TestKustomizedManifestPath(t *testing.T) {
	var asked string
	_, pols, probs := expandKustomized(t, func(dir string) (Kustomized, error) {
		asked = dir
		var n yaml.Node
		if err := yaml.Unmarshal([]byte("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: pre-idms\nspec:\n  imageDigestMirrors:\n  - source: quay.io/a\n"), &n); err != nil {
			t.Fatal(err)
		}
		obj := n.Content[0]
		files := map[*yaml.Node]string{}
		// The source as the build placed it in a base above the
		// generator; the name (prefixed by the build) left unplaced.
		src := value(value(value(obj, "spec"), "imageDigestMirrors").Content[0], "source")
		src.Line, src.Column = 7, 13
		files[src] = filepath.Join(filepath.Dir(dir), "..", "base", "idms.yaml")
		return Kustomized{Objects: []Built{{Node: obj, Files: files, Source: filepath.Join(dir, "idms.yaml")}},
			Files: []File{{Name: filepath.Join(dir, "kustomization.yaml"), Data: []byte("resources: [idms.yaml]\n")}}}, nil
	})
	if filepath.Base(asked) != "built" {
		t.Errorf("built %q, want the path's directory", asked)
	}
	if len(probs) != 0 || len(pols) != 1 || len(pols[0].Objects) != 1 {
		t.Fatalf("policies %+v, problems %+v", pols, probs)
	}
	o := pols[0].Objects[0]
	for path, want := range map[string]string{
		"spec.imageDigestMirrors[0].source": "base/idms.yaml:7:13 quay.io/a",
		"metadata.name":                     "hub/gen.yaml:10:15 pre-idms",
		"metadata.labels.team":              "hub/gen.yaml:14:23 a",
	} {
		if got := where(t, o, path); got != want {
			t.Errorf("%s at %s, want %s", path, got, want)
		}
	}
	if o.Source != "hub/built/idms.yaml" {
		t.Errorf("source %q", o.Source)
	}

	_, _, probs = expandKustomized(t, nil)
	if len(probs) != 1 || probs[0].Code != CodeSourceMissing || !strings.Contains(probs[0].Message, "kustomize build hub/built | mirrorlint lint -") {
		t.Errorf("without a build: %+v", probs)
	}
}

// A build that fails is the generator failing (generator-invalid, with
// kustomize's reason, its paths named as positions name files); one
// mirrorlint does not run (a Helm chart, a remote base) is an info, and
// one stopped at a limit is limit-exceeded. Each is at the path entry.
func TestKustomizedManifestPathNotBuilt(t *testing.T) {
	for _, tc := range []struct {
		err  func(dir string) error
		code string
		says string
	}{
		{func(dir string) error {
			return errors.New("accumulating resources: evalsymlink failure on '" + filepath.Join(dir, "missing.yaml") + "' : lstat " + filepath.Join(dir, "missing.yaml") + ": no such file or directory")
		}, CodeInvalid, "kustomize cannot build, so the policy generator fails: accumulating resources: hub/built/missing.yaml does not exist"},
		{func(dir string) error {
			return &NotBuilt{Reason: "its helmCharts entry \"x\" (in " + filepath.Join(dir, "kustomization.yaml") + ") inflates a Helm chart", Helm: true}
		}, CodeSourceMissing, "(in hub/built/kustomization.yaml) inflates a Helm chart, so what it delivers is not linted; lint it with `kustomize build --enable-helm hub/built | mirrorlint lint -`"},
		{func(string) error { return &NotBuilt{Reason: "the build took too long", Limit: true} }, CodeLimit, "was not built: the build took too long"},
	} {
		_, pols, probs := expandKustomized(t, func(dir string) (Kustomized, error) { return Kustomized{}, tc.err(dir) })
		if len(probs) != 1 || probs[0].Code != tc.code || !strings.Contains(probs[0].Message, tc.says) || probs[0].Line != 10 || probs[0].Column != 15 {
			t.Errorf("got %+v, want %s at 10:15 saying %q", probs, tc.code, tc.says)
		}
		if len(pols) != 1 || len(pols[0].Objects) != 0 {
			t.Errorf("policies %+v", pols)
		}
	}
}
