package manifest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// runDirTree is a policy repository whose kustomization (at the top) runs
// generators kept in subdirectories: the source CRs and the manifests lie
// beside the kustomization, where both generators look, not beside the
// generator files.
var runDirTree = map[string]string{
	"source-crs/IDMS.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: from-source-cr\nspec:\n  imageDigestMirrors:\n  - source: quay.io/acme\n    mirrors: [mirror.example.net/acme]\n",
	"input/itms.yaml":      "apiVersion: config.openshift.io/v1\nkind: ImageTagMirrorSet\nmetadata:\n  name: from-input\nspec:\n  imageTagMirrors:\n  - source: quay.io/acme\n    mirrors: [mirror.example.net/tags]\n",
	"global/pgt.yaml": `apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
metadata:
  name: common
  namespace: ztp-common
spec:
  bindingRules:
    common: "true"
  sourceFiles:
    - fileName: IDMS.yaml
      policyName: mirrors
`,
	"acm/pg.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
metadata:
  name: acm
policyDefaults:
  namespace: fleet
policies:
  - name: tags
    manifests:
      - path: input/itms.yaml
`,
}

// A generator file that a kustomization of another directory runs reads
// its source CRs and manifest paths from that directory
// (Options.GeneratorDir), names them as the walk does and lists them as
// what it read; without a directory to run in, from its own, as before.
func TestGeneratorRunInKustomizationDir(t *testing.T) {
	t.Parallel()
	root := testtree.Write(t, runDirTree)
	gens := []string{filepath.Join(root, "global/pgt.yaml"), filepath.Join(root, "acm/pg.yaml")}
	runDir := func(osPath string) string {
		if slices.Contains(gens, osPath) {
			return root
		}
		return ""
	}
	set, err := Load(gens, Options{GeneratorDir: runDir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range set.Objects {
		got = append(got, o.Ref()+" "+o.DeliveredBy+" "+o.Locate(ParsePath("metadata.name")).String())
	}
	want := []string{
		"ImageDigestMirrorSet/from-source-cr Policy/ztp-common/common-mirrors " + filepath.Join(root, "source-crs/IDMS.yaml") + ":4:9",
		"ImageTagMirrorSet/from-input Policy/fleet/tags " + filepath.Join(root, "input/itms.yaml") + ":4:9",
	}
	if !slices.Equal(got, want) {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(set.Problems) != 0 {
		t.Errorf("problems: %+v", set.Problems)
	}
	for i, read := range []string{"source-crs/IDMS.yaml", "input/itms.yaml"} {
		if g := set.Expansions[gens[i]]; !slices.Equal(g.Files, []string{filepath.Join(root, read)}) {
			t.Errorf("%s read %v, want %s", gens[i], g.Files, read)
		}
	}

	// Run from their own directories, they find neither; the message
	// names where the generator looked and where the source CR is.
	set, err = Load(gens, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, p := range set.Problems {
		msgs = append(msgs, p.Code+" "+p.Message)
	}
	if len(set.Objects) != 0 || len(msgs) != 2 ||
		!strings.HasPrefix(msgs[0], "source-cr-missing the source CR IDMS.yaml is not in "+filepath.Join(root, "global/source-crs")+",") ||
		!strings.HasSuffix(msgs[0], "; "+filepath.Join(root, "source-crs")+" holds one") ||
		!strings.HasPrefix(msgs[1], "source-cr-missing the manifest path "+filepath.Join(root, "acm/input/itms.yaml")+" names no file") {
		t.Errorf("run from their own directories: %d objects, problems:\n%s", len(set.Objects), strings.Join(msgs, "\n"))
	}
}

// Positions name the directory the generator runs in from the file's own
// name, so a generator given by a relative name reads files named the way
// a walk of the tree names them.
func TestGeneratorRunDirNamedFromTheFile(t *testing.T) {
	root := testtree.Write(t, runDirTree)
	t.Chdir(root)
	set, err := Load([]string{"global/pgt.yaml"}, Options{GeneratorDir: func(osPath string) string {
		if osPath == "global/pgt.yaml" {
			return root
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Objects) != 1 || set.Objects[0].Locate(ParsePath("metadata.name")).String() != "source-crs/IDMS.yaml:4:9" {
		t.Fatalf("objects %v, problems %+v", set.Objects, set.Problems)
	}
	if g := set.Expansions["global/pgt.yaml"]; !slices.Equal(g.Files, []string{"source-crs/IDMS.yaml"}) {
		t.Errorf("read %v", g.Files)
	}
}
