package impact

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const (
	ndpIDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: release}
spec:
  imageDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors: [mirror.example.com/ocp-release]
`
	ndpOverride = `apiVersion: v1
kind: ConfigMap
metadata:
  name: image-registry-override-drain
  namespace: openshift-machine-config-operator
`
)

// compareTrees writes two trees of files and compares them at version.
func compareTrees(t *testing.T, version string, old, new map[string]string) *Result {
	t.Helper()
	open := func(files map[string]string) *project.Project {
		dir := t.TempDir()
		testtree.WriteAt(t, dir, files)
		p, _, cleanup, err := OpenSide(project.Options{Paths: []string{dir}, ConfigPath: "none", OpenShiftVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cleanup)
		return p
	}
	return Compare(open(old), open(new), Options{})
}

// The 4.17–4.19 drain override turns the Special drain off (and only
// that); 4.20 ignores it.
func TestDrainOverrideConfigMap(t *testing.T) {
	old := map[string]string{"idms.yaml": ndpIDMS}
	removed := map[string]string{"cm.yaml": ndpOverride}
	for _, tc := range []struct{ version, action string }{{"4.18", ActionReload}, {"4.19", ActionReload}, {"4.20", ActionDrain}} {
		res := compareTrees(t, tc.version, old, removed)
		if res.Action != tc.action || strings.Join(res.Actions, ",") != "Special" {
			t.Errorf("%s: action %s %q, want %s [Special]", tc.version, res.Action, res.Actions, tc.action)
		}
		if p := res.Clusters[0].Policy; p == nil || p.DrainOverride != (tc.action == ActionReload) {
			t.Errorf("%s: policy %+v", tc.version, p)
		}
	}
	// Without it the removed mirror drains on every release.
	if res := compareTrees(t, "4.18", old, map[string]string{}); res.Action != ActionDrain {
		t.Errorf("without the override: %s", res.Action)
	}
}

// A user policy names its entry in the reasons, and its position in the
// JSON; a release before 4.17 keeps the legacy verdict.
func TestPolicyEntryNamed(t *testing.T) {
	mc := `apiVersion: operator.openshift.io/v1
kind: MachineConfiguration
metadata: {name: cluster}
spec:
  nodeDisruptionPolicy:
    files:
    - path: /etc/containers/registries.conf
      actions: [{type: Restart, restart: {serviceName: crio.service}}]
`
	old := map[string]string{"idms.yaml": ndpIDMS, "mc.yaml": mc}
	res := compareTrees(t, "4.21", old, map[string]string{"mc.yaml": mc})
	// registries.d follows its default (4.21 signs the mirrors too).
	if res.Action != ActionReload || strings.Join(res.Actions, ",") != "Restart - crio.service,Reload - crio.service" {
		t.Fatalf("action %s %q", res.Action, res.Actions)
	}
	m := res.Clusters[0].Policy.Matches[0]
	if m.Entry != "MachineConfiguration/cluster spec.nodeDisruptionPolicy.files[0]" || m.Position == nil || m.Position.Line != 7 {
		t.Errorf("match %+v", m)
	}
	found := false
	for _, r := range res.Reasons {
		found = found || strings.Contains(r.Message, "MachineConfiguration/cluster spec.nodeDisruptionPolicy.files[0] (/etc/containers/registries.conf: Restart - crio.service)")
	}
	if !found {
		t.Errorf("no reason names the entry: %+v", res.Reasons)
	}
	if legacy := compareTrees(t, "4.16", old, map[string]string{"mc.yaml": mc}); legacy.Action != ActionDrain || legacy.Clusters[0].Policy != nil {
		t.Errorf("4.16: %s %+v", legacy.Action, legacy.Clusters[0].Policy)
	}
}

// A registry CA change is listed with its diff and drains nothing.
func TestRegistryCAChangeDrainsNothing(t *testing.T) {
	image := "apiVersion: config.openshift.io/v1\nkind: Image\nmetadata: {name: cluster}\nspec:\n  additionalTrustedCA: {name: cas}\n"
	cm := func(pem string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cas, namespace: openshift-config}\ndata:\n  mirror.example.com..5000: " + pem + "\n"
	}
	for _, version := range []string{"4.16", "4.21"} {
		res := compareTrees(t, version, map[string]string{"image.yaml": image, "cm.yaml": cm("old")}, map[string]string{"image.yaml": image, "cm.yaml": cm("new")})
		f := res.Files["/etc/docker/certs.d/mirror.example.com:5000/ca.crt"]
		if res.Action != ActionNone || res.Drain || f == nil || !f.Changed {
			t.Fatalf("%s: action %s drain %v file %+v", version, res.Action, res.Drain, f)
		}
		if len(res.Reasons) != 1 || res.Reasons[0].Drain || !strings.Contains(res.Reasons[0].Message, "registry CA for mirror.example.com:5000 changed: the machine-config-daemon writes it") {
			t.Errorf("%s: reasons %+v", version, res.Reasons)
		}
	}
}
