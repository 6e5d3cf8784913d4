package ztp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// expandFile expands the one generator document of a testdata file, with
// its source CRs read from beside it.
func expandFile(t *testing.T, rel string) ([]*Policy, []Problem) {
	t.Helper()
	p := filepath.Join("testdata", rel)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	src := &Dirs{Dir: filepath.Dir(p), Shown: filepath.ToSlash(filepath.Dir(rel)), Root: "testdata"}
	return Expand(rel, &doc, src)
}

// at finds the node at a dotted path of keys and indexes ("spec.x[0]").
func at(t *testing.T, o *Object, dotted string) *yaml.Node {
	t.Helper()
	n := o.Node
	for _, part := range strings.Split(dotted, ".") {
		name, idx, _ := strings.Cut(part, "[")
		if name != "" {
			n = value(n, name)
		}
		for idx != "" {
			var i int
			for idx[0] >= '0' && idx[0] <= '9' {
				i = i*10 + int(idx[0]-'0')
				idx = idx[1:]
			}
			idx = strings.TrimPrefix(strings.TrimPrefix(idx, "]"), "[")
			if n == nil || n.Kind != yaml.SequenceNode || i >= len(n.Content) {
				t.Fatalf("%s: no index %d", dotted, i)
			}
			n = n.Content[i]
		}
		if n == nil {
			t.Fatalf("%s: no %s", dotted, part)
		}
	}
	return n
}

// where writes file:line:column of the node at dotted, and its value.
func where(t *testing.T, o *Object, dotted string) string {
	n := at(t, o, dotted)
	s := o.FileOf(n, "?") + ":" + itoa(n.Line) + ":" + itoa(n.Column)
	if n.Kind == yaml.ScalarNode {
		s += " " + n.Value
	}
	return s
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestPolicyGenTemplateMergesAsZTP(t *testing.T) {
	pols, probs := expandFile(t, "ran/common-ranGen.yaml")
	if len(pols) != 2 {
		t.Fatalf("want the policy and the plain CRs, got %d policies", len(pols))
	}
	p := pols[0]
	if p.Ref() != "Policy/ztp-common/common-config-policy" {
		t.Errorf("policy %s", p.Ref())
	}
	if got := p.Selector.String(); got != "common=true,du-profile in (4.20,4.21),!lab" {
		t.Errorf("selector %q", got)
	}
	if len(p.Objects) != 1 {
		t.Fatalf("%d objects, want the IDMS (the log forwarder's source CR is missing)", len(p.Objects))
	}
	o := p.Objects[0]
	src := "ran/source-crs/disconnected-registry/DisconnectedIDMS.yaml"
	for path, want := range map[string]string{
		// The entry replaces the first element's scalar list, keeps the
		// rest of the element and the second element of the source CR.
		"spec.imageDigestMirrors[0].mirrors[0]":         "ran/common-ranGen.yaml:18:17 Registry.Example.com:5000",
		"spec.imageDigestMirrors[0].source":             src + ":9:15 registry.redhat.io",
		"spec.imageDigestMirrors[0].mirrorSourcePolicy": src + ":12:27 AllowContactingSource",
		"spec.imageDigestMirrors[1].mirrors[0]":         src + ":15:11 mirror.example.com/ocp",
		"metadata.name":                                 src + ":4:9 disconnected-idms",
	} {
		if got := where(t, o, path); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
	if len(at(t, o, "spec.imageDigestMirrors[0].mirrors").Content) != 1 {
		t.Error("the source CR's $mirror placeholder survived the entry's list")
	}
	if value(at(t, o, "spec"), "placeholder") != nil {
		t.Error("an empty string the entry does not set stays in the CR; the generator drops it")
	}
	if value(at(t, o, "metadata"), "annotations") != nil {
		t.Error("the deploy-wave annotation stays on a CR wrapped in a policy")
	}
	plain := pols[1]
	if plain.Name != "" || len(plain.Objects) != 1 {
		t.Fatalf("plain CRs: %+v", plain)
	}
	if got := where(t, plain.Objects[0], "metadata.name"); got != "ran/common-ranGen.yaml:23:15 $mcp-extra" {
		t.Errorf("plain CR name %s", got)
	}
	if len(probs) != 1 {
		t.Fatalf("problems %+v", probs)
	}
	pr := probs[0]
	if pr.Code != CodeSourceMissing || pr.Line != 19 || pr.Column != 17 ||
		!strings.Contains(pr.Message, "the source CR ClusterLogForwarder.yaml is not in ran/source-crs") ||
		!strings.Contains(pr.Message, "sourceCRs: [DIR]") {
		t.Errorf("missing source CR: %+v", pr)
	}
}

func TestPolicyGeneratorPatchesAsKustomize(t *testing.T) {
	pols, probs := expandFile(t, "hub/acm-common.yaml")
	if len(pols) != 2 {
		t.Fatalf("%d policies", len(pols))
	}
	idms := pols[0].Objects[0]
	if pols[0].Ref() != "Policy/ztp-common/common-config-policy" || pols[0].Selector.String() != "common=true" {
		t.Errorf("policy %s bound to %s", pols[0].Ref(), pols[0].Selector)
	}
	// A strategic-merge patch replaces a list whose elements have no name.
	if n := len(at(t, idms, "spec.imageDigestMirrors").Content); n != 1 {
		t.Errorf("the patch's list replaces the source CR's; got %d elements", n)
	}
	if got := where(t, idms, "spec.imageDigestMirrors[0].mirrors[0]"); got != "hub/acm-common.yaml:21:23 mirror.hub.example.com:8443" {
		t.Errorf("patched mirror at %s", got)
	}
	if got := where(t, idms, "metadata.name"); got != "hub/source-crs/DisconnectedIDMS.yaml:4:9 disconnected-idms" {
		t.Errorf("name at %s", got)
	}
	mc := pols[1].Objects[0]
	if pols[1].Selector.String() != "group-du-sno" || mc.ComplianceType != "mustonlyhave" {
		t.Errorf("group policy bound to %s, compliance %s", pols[1].Selector, mc.ComplianceType)
	}
	// Lists of named elements merge by name; the patch renames the CR.
	if got := where(t, mc, "spec.config.systemd.units[0].enabled"); got != "hub/acm-common.yaml:39:32 false" {
		t.Errorf("merged unit at %s", got)
	}
	if got := where(t, mc, "spec.config.systemd.units[0].contents"); !strings.HasPrefix(got, "hub/source-crs/MachineConfig.yaml:15:") {
		t.Errorf("kept contents at %s", got)
	}
	if got := where(t, mc, "spec.config.systemd.units[1].name"); got != "hub/source-crs/MachineConfig.yaml:16:17 kubelet.service" {
		t.Errorf("second unit at %s", got)
	}
	if got := where(t, mc, "metadata.name"); got != "hub/acm-common.yaml:33:21 99-registries" {
		t.Errorf("renamed at %s", got)
	}
	if len(probs) != 1 || probs[0].Code != CodeSourceMissing || probs[0].Line != 40 ||
		!strings.Contains(probs[0].Message, "the source CR Missing.yaml is not in hub/source-crs") || !strings.Contains(probs[0].Message, "sourceCRs: [DIR]") {
		t.Errorf("problems %+v", probs)
	}
}

func TestSelectors(t *testing.T) {
	for _, tc := range []struct {
		yaml   string
		labels map[string]string
		want   bool
	}{
		{"bindingRules: {sites: \"a,b\"}", map[string]string{"sites": "b"}, true},
		{"bindingRules: {sites: \"a,b\"}", map[string]string{"sites": "c"}, false},
		{"bindingRules: {common: \"\"}", map[string]string{"common": "x"}, true},
		{"bindingExcludedRules: {lab: \"\"}", map[string]string{"lab": ""}, false},
		{"bindingExcludedRules: {lab: \"x\"}", map[string]string{"lab": "y"}, true},
		{"{}", map[string]string{}, true},
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(tc.yaml), &n); err != nil {
			t.Fatal(err)
		}
		s, err := bindingSelector(deref(&n))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Matches(tc.labels); got != tc.want {
			t.Errorf("%s on %v: %v", tc.yaml, tc.labels, got)
		}
	}
	var n yaml.Node
	_ = yaml.Unmarshal([]byte("bindingRules: {lab: x}\nbindingExcludedRules: {lab: \"\"}"), &n)
	if _, err := bindingSelector(deref(&n)); err == nil {
		t.Error("a label both bound and excluded is accepted; the generator refuses it")
	}
	for _, tc := range []struct {
		yaml, want string
	}{
		{"labelSelector: {a: \"\", b: c}", "a,b=c"},
		{"labelSelector: {matchLabels: {a: b}, matchExpressions: [{key: c, operator: NotIn, values: [d, e]}]}", "a=b,c notin (d,e)"},
		{"placementName: hub-placement", "the placement placementName hub-placement, which is not evaluated here"},
		// encoding/json reads field names regardless of case.
		{"labelSelector: {matchexpressions: [{key: a, operator: Exists, values: []}], matchlabels: {}}", "a"},
	} {
		var n yaml.Node
		_ = yaml.Unmarshal([]byte(tc.yaml), &n)
		s, err := placementSelector(deref(&n))
		if err != nil || s.String() != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.yaml, s.String(), err, tc.want)
		}
	}
}

// memSource serves source CRs from memory, for the fuzz target.
type memSource map[string]string

func (m memSource) SourceCR(name string) (File, error) {
	if d, ok := m[name]; ok {
		return File{Name: "source-crs/" + name, Data: []byte(d)}, nil
	}
	return File{}, &missing{msg: "missing " + name}
}

func (m memSource) Manifests(p string) ([]File, error) {
	if d, ok := m[strings.TrimPrefix(p, "source-crs/")]; ok {
		return []File{{Name: p, Data: []byte(d)}}, nil
	}
	return nil, errors.Join(fs.ErrNotExist)
}

func (m memSource) Kustomization(string) (Kustomized, error) {
	return Kustomized{}, errors.Join(fs.ErrNotExist)
}

// A source CR whose spec holds only comments (null) takes the entry's, as
// the generator's map merge does; a PolicyGenerator path into source-crs/
// is found in a configured source CR directory.
func TestEmptySectionAndConfiguredDirs(t *testing.T) {
	gen := "apiVersion: ran.openshift.io/v1\nkind: PolicyGenTemplate\nmetadata: {name: g, namespace: n}\nspec:\n  sourceFiles:\n    - fileName: EmptySpecIDMS.yaml\n      policyName: p\n      spec:\n        imageDigestMirrors:\n          - source: quay.io/a\n            mirrors: [m.example.com/a]\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(gen), &doc); err != nil {
		t.Fatal(err)
	}
	pols, probs := Expand("g.yaml", &doc, &Dirs{Dir: "testdata/ran", Shown: "ran"})
	if len(probs) != 0 || len(pols) != 1 || len(pols[0].Objects) != 1 {
		t.Fatalf("%+v %+v", pols, probs)
	}
	if got := where(t, pols[0].Objects[0], "spec.imageDigestMirrors[0].source"); got != "g.yaml:10:21 quay.io/a" {
		t.Errorf("source at %s", got)
	}
	d := &Dirs{Dir: t.TempDir(), Shown: "hub", SourceCRs: []string{"testdata/hub/source-crs"}}
	files, err := d.Manifests("source-crs/MachineConfig.yaml")
	if err != nil || len(files) != 1 {
		t.Fatalf("%v %v", files, err)
	}
}
