package manifest

import (
	"strings"
	"testing"
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
