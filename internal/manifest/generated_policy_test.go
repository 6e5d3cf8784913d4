package manifest

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A PolicyGenerator manifest that is itself a ConfigurationPolicy, or holds
// only object-templates-raw, becomes the policy's template: the objects it
// holds are what the policy delivers, read at their lines in the manifest
// (a literal object-templates-raw block included), and a template in it is
// reported there. The files the expansion read, and the problems it placed
// in them, are listed for the generator's file.
func TestGeneratedConfigurationPolicies(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"gen.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
metadata:
  name: mirrors
policyDefaults:
  namespace: policies
policies:
  - name: mirrors
    manifests:
      - path: cp.yaml
      - path: raw.yaml
      - path: templated.yaml
`,
		"cp.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: ConfigurationPolicy
metadata:
  name: cp
spec:
  object-templates:
    - complianceType: musthave
      objectDefinition:
        apiVersion: config.openshift.io/v1
        kind: ImageTagMirrorSet
        metadata:
          name: tags
        spec:
          imageTagMirrors:
            - source: registry.example.com/team
              mirrors: [mirror.example.com/team]
    - complianceType: mustnothave
      objectDefinition:
        apiVersion: config.openshift.io/v1
        kind: ImageDigestMirrorSet
        metadata:
          name: gone
`,
		"raw.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: ConfigurationPolicy
metadata:
  name: raw
spec:
  object-templates-raw: |
    - complianceType: musthave
      objectDefinition:
        apiVersion: config.openshift.io/v1
        kind: ImageDigestMirrorSet
        metadata:
          name: digests
        spec:
          imageDigestMirrors:
            - source: registry.example.com/app
              mirrors: [mirror.example.com/app]
`,
		"templated.yaml": `object-templates-raw: |
  {{- range (lookup "v1" "Namespace" "" "").items }}
  - complianceType: musthave
  {{- end }}
`,
	})
	gen := filepath.Join(dir, "gen.yaml")
	set, err := Load([]string{gen}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range set.Objects {
		got = append(got, o.Ref()+" "+o.DeliveredBy+" "+o.Locate(Path{"spec"}).String())
	}
	want := []string{
		"ImageTagMirrorSet/tags Policy/policies/mirrors " + filepath.Join(dir, "cp.yaml") + ":14:11",
		"ImageDigestMirrorSet/digests Policy/policies/mirrors " + filepath.Join(dir, "raw.yaml") + ":14:11",
	}
	if !slices.Equal(got, want) {
		t.Errorf("objects\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	templated := filepath.Join(dir, "templated.yaml")
	if len(set.Problems) != 1 || set.Problems[0].Code != CodePolicyTemplate || set.Problems[0].Pos.String() != templated+":2:3" ||
		!strings.Contains(set.Problems[0].Message, "object-templates-raw of Policy/policies/mirrors") {
		t.Errorf("problems %v, want the template of templated.yaml at 2:3", set.Problems)
	}
	g := set.Expansions[gen]
	if reads := []string{filepath.Join(dir, "cp.yaml"), filepath.Join(dir, "raw.yaml"), templated}; !slices.Equal(g.Files, reads) {
		t.Errorf("generator read %v, want %v", g.Files, reads)
	}
	if len(g.Problems) != 1 || !reflect.DeepEqual(g.Problems[0], set.Problems[0]) {
		t.Errorf("generator's problems %v, want the template note", g.Problems)
	}
}

// A templated object-templates-raw block is noted where its first template
// is, by that template's kind, and only when it may deliver an object the
// run would read: a mirror kind, an image-pulling kind while images are
// kept, or a kind it cannot read for certain.
func TestRawTemplateNotes(t *testing.T) {
	t.Parallel()
	policy := func(name, raw string) string {
		return `apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: ` + name + `
  namespace: policies
spec:
  policy-templates:
    - objectDefinition:
        apiVersion: policy.open-cluster-management.io/v1
        kind: ConfigurationPolicy
        metadata:
          name: ` + name + `
        spec:
          object-templates-raw: |
` + raw
	}
	block := func(kind, firstLine string) string {
		return "            " + firstLine + "\n" + `            - complianceType: musthave
              objectDefinition:
                apiVersion: v1
                kind: ` + kind + `
                metadata:
                  name: '{{hub .ManagedClusterName hub}}'
`
	}
	dir := testtree.Write(t, map[string]string{
		"namespace.yaml": policy("namespace", block("Namespace", "{{- if true }}")),
		"mirrors.yaml":   policy("mirrors", block("ImageDigestMirrorSet", "# mirrors {{ .x }}")),
		"catalog.yaml":   policy("catalog", block("CatalogSource", "{{hub- if true -hub}}")),
		"anykind.yaml":   policy("anykind", block("'{{ .Kind }}'", "{{- if true }}")),
	})
	for _, c := range []struct {
		keep Unmodelled
		want []string
	}{
		{UnmodelledNone, []string{"anykind.yaml:15:13 managed-cluster", "mirrors.yaml:15:23 managed-cluster"}},
		{UnmodelledImages, []string{"anykind.yaml:15:13 managed-cluster", "catalog.yaml:15:13 hub", "mirrors.yaml:15:23 managed-cluster"}},
	} {
		set, err := Load([]string{dir}, Options{Unmodelled: c.keep})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range set.Problems {
			kind := "managed-cluster"
			if strings.Contains(p.Message, "a hub template") {
				kind = "hub"
			}
			got = append(got, fmt.Sprintf("%s:%d:%d %s", filepath.Base(p.Pos.File), p.Pos.Line, p.Pos.Column, kind))
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("keep %v: notes %v, want %v", c.keep, got, c.want)
		}
	}
}
