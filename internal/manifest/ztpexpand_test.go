package manifest

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A generator on disk is expanded with its source CRs: an entry's value is
// located in the generator, an inherited one in the source CR; a missing
// source CR is reported on its fileName line, except for the disconnected
// source CRs whose kind is known, read from the entry alone.
func TestGeneratorExpandedWithSourceCRs(t *testing.T) {
	t.Parallel()
	set, err := Load([]string{"testdata/ztp-expand/group-du-sno.yaml"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range set.Objects {
		got = append(got, o.Ref()+" "+o.DeliveredBy+" "+
			o.Locate(ParsePath("spec.imageDigestMirrors[0].mirrors[0]")).String()+" "+
			o.Locate(ParsePath("spec.imageDigestMirrors[1].source")).String()+" "+
			o.Position().String())
	}
	gen, cr := "testdata/ztp-expand/group-du-sno.yaml", "testdata/ztp-expand/source-crs/ReleaseIDMS.yaml"
	want := []string{
		"ImageDigestMirrorSet/release Policy/ztp-group/group-du-sno-mirrors " + gen + ":15:17 " + cr + ":10:15 " + gen + ":10:17",
		"ImageContentSourcePolicy/disconnected-internal-icsp Policy/ztp-group/group-du-sno-mirrors " + gen + ":18:17 " + gen + ":18:17 " + gen + ":18:7",
		"ImageDigestMirrorSet/renamed Policy/ztp-hub/hub-mirrors " + cr + ":9:11 " + cr + ":10:15 " + gen + ":37:15",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Every object of a policy, read with its source CR or from the entry
	// alone, carries the policy's binding.
	for _, o := range set.Objects[:2] {
		if o.Binding == nil || o.Binding.String() != "group-du-sno" || o.Binding.At.Line != 7 ||
			o.BoundTo != "bound to the managed clusters labelled group-du-sno" {
			t.Errorf("%s: binding %+v, %q", o.Ref(), o.Binding, o.BoundTo)
		}
	}
	if len(set.Problems) != 1 {
		t.Fatalf("problems: %+v", set.Problems)
	}
	p := set.Problems[0]
	if p.Code != CodeSourceCRMissing || p.Pos.String() != gen+":16:17" || !p.Warning ||
		!strings.HasPrefix(p.Message, "the source CR Missing.yaml is not in testdata/ztp-expand/source-crs") {
		t.Errorf("missing source CR: %+v", p)
	}
	// The end of an inherited value is found in the source CR's text.
	if pos := set.Objects[0].Locate(ParsePath("spec.imageDigestMirrors[1].source")); pos.EndColumn != 15+len("quay.io/Openshift-Release-Dev/ocp-v4.0-art-dev") {
		t.Errorf("inherited value ends at %d", pos.EndColumn)
	}
}

// The source CRs one generator names that are missing from the same
// places (and held by the same source-crs directory above, if any) are
// one problem at the first entry, the other entries related to it, each
// source CR named once; a disconnected source CR the loader knows is read
// from the entry, and a lone miss keeps its own message.
func TestMissingSourceCRsAreOneProblem(t *testing.T) {
	t.Parallel()
	root := testtree.Write(t, map[string]string{
		"source-crs/Above.yaml":    "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: above\n",
		"source-crs/Above2.yaml":   "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: above2\n",
		"hub/source-crs/Here.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: here\n",
		"hub/pgt.yaml": `apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
metadata:
  name: common
  namespace: ztp-common
spec:
  bindingRules:
    common: ""
  sourceFiles:
    - fileName: One.yaml
      policyName: config
    - fileName: Here.yaml
      policyName: config
    - fileName: DisconnectedIDMS.yaml
      policyName: config
      spec:
        imageDigestMirrors:
          - source: quay.io/openshift-release-dev/ocp-release
            mirrors:
              - mirror.example.com/ocp-release
    - fileName: Above.yaml
      policyName: config
    - fileName: sub/Two.yaml
      policyName: config
    - fileName: Three.yaml
      policyName: config
---
apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
metadata:
  name: lone
  namespace: ztp-common
spec:
  bindingRules:
    lone: ""
  sourceFiles:
    - fileName: Four.yaml
      policyName: config
    - fileName: Above.yaml
      policyName: config
    - fileName: Above2.yaml
      policyName: other
    - fileName: Above.yaml
      policyName: other
`,
	})
	set, err := Load([]string{filepath.Join(root, "hub", "pgt.yaml")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range set.Problems {
		line := fmt.Sprintf("%d:%d %s %s", p.Pos.Line, p.Pos.Column, p.Code, p.Message)
		for _, r := range p.Related {
			line += fmt.Sprintf(" +%d:%d", r.Line, r.Column)
		}
		got = append(got, line)
	}
	gen := filepath.Join(root, "hub")
	want := []string{
		"10:17 source-cr-missing 3 source CRs this generator names are not in " + gen + "/source-crs (One.yaml, sub/Two.yaml, Three.yaml, each entry listed with this finding), so what they deliver is not linted (the ZTP container would use its own copies): put the container's source CRs there, or name the directory holding them in .mirrorlint.yaml (sourceCRs: [DIR]) +23:17 +25:17",
		"21:17 source-cr-missing the source CR Above.yaml is not in " + gen + "/source-crs, so what it delivers is not linted (the ZTP container would use its own copy): put the container's source CRs there, or name the directory holding them in .mirrorlint.yaml (sourceCRs: [DIR]); " + filepath.Join(root, "source-crs") + " holds one",
		"37:17 source-cr-missing the source CR Four.yaml is not in " + gen + "/source-crs, so what it delivers is not linted (the ZTP container would use its own copy): put the container's source CRs there, or name the directory holding them in .mirrorlint.yaml (sourceCRs: [DIR])",
		"39:17 source-cr-missing 2 source CRs this generator names in 3 entries are not in " + gen + "/source-crs (Above.yaml, Above2.yaml, each entry listed with this finding), so what they deliver is not linted (the ZTP container would use its own copies): put the container's source CRs there, or name the directory holding them in .mirrorlint.yaml (sourceCRs: [DIR]); " + filepath.Join(root, "source-crs") + " holds them +41:17 +43:17",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The disconnected mirror set is read from its entry.
	var refs []string
	for _, o := range set.Objects {
		refs = append(refs, o.Ref())
	}
	if !slices.Contains(refs, "ImageDigestMirrorSet/fec-disconnected-idms") {
		t.Errorf("objects %v: the disconnected mirror set was not read from its entry", refs)
	}
}
