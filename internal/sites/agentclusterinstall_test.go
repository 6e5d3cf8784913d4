package sites

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// A hand-written AgentClusterInstall is a site named after its
// ClusterDeployment (its own name when the reference names none), with
// its ClusterImageSet, its mirror ConfigMap and its annotation read as
// installConfigOverrides, placed inside the string whether quoted or a
// block, and kept verbatim: assisted-service decodes the annotation as
// written. An annotation YAML reads as a mapping is a problem, and no
// site; one of another apiVersion is no AgentClusterInstall of
// assisted-service's; one without a name (a template's text) is none.
func TestAgentClusterInstalls(t *testing.T) {
	set, err := manifest.Load([]string{"testdata/agentclusterinstall.yaml"}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	got, probs := AgentClusterInstalls(set.Objects)
	if len(got) != 3 {
		t.Fatalf("got %d AgentClusterInstalls, want 3", len(got))
	}
	a, b, d := got[0], got[1], got[2]
	if a.Kind != KindAgentClusterInstall || a.Name != "sno1" || a.Namespace != "sno1" || a.ImageSet != "img4.16.3-x86-64-appsub" ||
		a.Labels != nil || a.Ref() != "AgentClusterInstall/sno1-install" {
		t.Errorf("first: %+v", a)
	}
	if p := a.Object.Locate(a.ImageSetPath); p.Line != 12 {
		t.Errorf("imageSetRef at %v, want line 12", p)
	}
	if r := a.MirrorRegistryRef; r == nil || r.Name != "sno1-mirrors" || r.Namespace != "sno1" || a.Object.Locate(r.Path).Line != 14 {
		t.Errorf("mirrorRegistryRef %+v", r)
	}
	ov := a.Overrides
	if ov == nil || ov.SyntaxError != nil || ov.Field != "install-config-overrides" {
		t.Fatalf("overrides %+v", ov)
	}
	if ann, err := ov.Annotation(); err != nil || ann != ov.Text {
		t.Errorf("annotation %q (%v), want the text as written", ann, err)
	}
	if ov.Key.Line != 7 || ov.Key.Column != 5 {
		t.Errorf("key at %v, want 7:5", ov.Key)
	}
	if p := ov.Locate("imageDigestSources[0].mirrors[0]", false); p.Line != 7 || p.Column != 163 {
		t.Errorf("mirror at %v, want 7:163", p)
	}
	if b.Name != "sno2" || b.ImageSet != "" || b.MirrorRegistryRef != nil {
		t.Errorf("second: %+v", b)
	}
	if p := b.Overrides.Locate("imageDigestSources[0].sourcePolicy", true); p.Line != 27 || p.Column != 71 {
		t.Errorf("sourcePolicy at %v, want 27:71", p)
	}
	if d.Name != "sno4" || d.Overrides != nil {
		t.Errorf("third: %+v", d)
	}
	if len(probs) != 1 || !probs[0].Overrides || probs[0].Pos.Line != 40 ||
		!strings.Contains(probs[0].Message, "AgentClusterInstall/sno3: annotation agent-install.openshift.io/install-config-overrides must be a string holding JSON, not a YAML mapping") {
		t.Errorf("problems %+v", probs)
	}
}
