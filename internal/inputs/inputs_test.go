package inputs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"github.com/mirrorlint/mirrorlint/render"
)

func readTree(t testing.TB, files map[string]string, v render.Version) *Result {
	t.Helper()
	dir := t.TempDir()
	testtree.WriteAt(t, dir, files)
	set, err := manifest.Load([]string{dir}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	return Read(set.Objects, v)
}

// The bootstrap file groups by (source, policy) in first-seen order, keeps
// each mirror once, skips groups without mirrors and blocks only
// NeverContactSource; the IDMS keeps the entries as written.
func TestBootstrapGroups(t *testing.T) {
	res := readTree(t, map[string]string{"install-config.yaml": `apiVersion: v1
metadata:
  name: c
imageDigestSources:
- source: quay.io/a
  mirrors: [m.example.com/a, m.example.com/a2]
- source: quay.io/b
- source: quay.io/a
  mirrors: [m.example.com/a, m.example.com/a3]
- source: quay.io/c
  mirrors: [m.example.com/c]
  sourcePolicy: NeverContactSource
`}, render.Version{})
	c := res.Clusters[0]
	want := `[[registry]]
location = "quay.io/a"
insecure = false
mirror-by-digest-only = true
blocked = false

[[registry.mirror]]
location = "m.example.com/a"
insecure = false
[[registry.mirror]]
location = "m.example.com/a2"
insecure = false
[[registry.mirror]]
location = "m.example.com/a3"
insecure = false


[[registry]]
location = "quay.io/c"
insecure = false
mirror-by-digest-only = true
blocked = true

[[registry.mirror]]
location = "m.example.com/c"
insecure = false


`
	if string(c.Bootstrap) != want {
		t.Errorf("bootstrap:\n%s\nwant:\n%s", c.Bootstrap, want)
	}
	if n := len(c.IDMSs[0].Spec.ImageDigestMirrors); n != 4 {
		t.Errorf("IDMS has %d entries, want the 4 written", n)
	}
	if len(res.Findings) != 0 {
		t.Errorf("findings: %v", res.Findings)
	}
	// The derived IDMS is placed at the install-config's values.
	o := c.Objects[0]
	if p := o.Locate(manifest.ParsePath("spec.imageDigestMirrors[3].mirrors[0]")); p.Line != 11 || p.Column != 13 || !strings.HasSuffix(p.File, "install-config.yaml") {
		t.Errorf("derived mirror at %v, want install-config.yaml:11:13", p)
	}
}

// An older installer drops sourcePolicy: a warning, and the objects lose it.
func TestSourcePolicyBefore421(t *testing.T) {
	files := map[string]string{"install-config.yaml": `apiVersion: v1
metadata:
  name: c
imageDigestSources:
- source: quay.io/c
  mirrors: [m.example.com/c]
  sourcePolicy: NeverContactSource
`}
	res := readTree(t, files, render.Version{Minor: 20, Patch: -1})
	if len(res.Findings) != 1 || res.Findings[0].Rule != RuleInstallSourcePolicy || res.Findings[0].Severity.String() != "warning" {
		t.Fatalf("findings: %v", res.Findings)
	}
	if p := res.Clusters[0].IDMSs[0].Spec.ImageDigestMirrors[0].MirrorSourcePolicy; p != "" {
		t.Errorf("mirrorSourcePolicy %q kept by a 4.20 installer", p)
	}
	res = readTree(t, files, render.Version{})
	if len(res.Findings) != 0 || res.Clusters[0].IDMSs[0].Spec.ImageDigestMirrors[0].MirrorSourcePolicy != "NeverContactSource" {
		t.Errorf("4.21: %v %+v", res.Findings, res.Clusters[0].IDMSs[0].Spec)
	}
}

// FuzzRead: any tree of these kinds is read without a panic, and every
// finding has a position in a file.
func FuzzRead(f *testing.F) {
	for _, dir := range []string{"0003", "0004", "0007", "0008"} {
		filepath.WalkDir(filepath.Join(sharedInputs, dir, "manifests"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(string(b))
				}
			}
			return nil
		})
	}
	f.Add("apiVersion: agent-install.openshift.io/v1beta1\nkind: AgentServiceConfig\nmetadata: {name: a}\nspec: {mirrorRegistryRef: {name: m}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\ndata:\n  registries.conf: |\n    [[registry]]\n    location = \"q\"\n    [[registry.mirror]]\n    location = \"m\"\n")
	// A hand-written AgentClusterInstall with its annotation, and a site
	// reading extra manifests from a ConfigMap.
	f.Add("apiVersion: extensions.hive.openshift.io/v1beta1\nkind: AgentClusterInstall\nmetadata:\n  name: sno1\n  namespace: sno1\n  annotations:\n    agent-install.openshift.io/install-config-overrides: '{\"imageDigestSources\":[{\"source\":\"quay.io/a\",\"mirrors\":[\"m.example.com/a\",\"m.example.com/a\"]}]}'\nspec:\n  clusterDeploymentRef: {name: sno1}\n  imageSetRef: {name: img4.16.3-x86-64}\n  mirrorRegistryRef: {name: m, namespace: sno1}\n")
	f.Add("apiVersion: siteconfig.open-cluster-management.io/v1alpha1\nkind: ClusterInstance\nmetadata: {name: sno1, namespace: sno1}\nspec:\n  clusterName: sno1\n  extraManifestsRefs: [{name: extra}]\n  installConfigOverrides: '{\"imageDigestSources\":[]}'\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: extra, namespace: sno1}\ndata:\n  idms.yaml: |\n    apiVersion: config.openshift.io/v1\n    kind: ImageDigestMirrorSet\n    metadata: {name: x}\n")
	f.Fuzz(func(t *testing.T, text string) {
		set, err := manifest.LoadReader("in.yaml", strings.NewReader(text), manifest.Options{Unmodelled: manifest.UnmodelledAll})
		if err != nil {
			return
		}
		res := Read(set.Objects, render.Version{})
		for _, fd := range res.Findings {
			if fd.Pos.File == "" || fd.Message == "" {
				t.Fatalf("finding without a place or message: %+v", fd)
			}
		}
		for _, c := range res.Clusters {
			if _, err := c.ObjectsYAML(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// contentSourcesConfig is an install-config of imageContentSources alone:
// quay.io/a's entry on lines 5-7, quay.io/b's on lines 8-9.
const contentSourcesConfig = `apiVersion: v1
metadata:
  name: c
imageContentSources:
- source: quay.io/a
  mirrors:
  - m.example.com/a
- source: quay.io/b
  mirrors: [m.example.com/b, m2.example.com/b]
`

// The ICSPs of imageContentSources are what the installer of the release
// writes: from 4.14 one, image-policy, holding every entry; before, one
// per entry, image-policy-<i>. Each is a loaded object placed at the
// entries it copies, its own fields at the list's key.
func TestContentSourceICSPsPlaced(t *testing.T) {
	type place struct {
		object    int
		path      string
		line, col int
	}
	for _, tc := range []struct {
		v      render.Version
		names  []string
		places []place
	}{
		{render.Version{}, []string{"image-policy"}, []place{
			{0, "kind", 4, 1},
			{0, "spec.repositoryDigestMirrors[1].source", 8, 11},
			{0, "spec.repositoryDigestMirrors[1].mirrors[1]", 9, 30},
			{0, "spec.repositoryDigestMirrors[0].mirrors[0]", 7, 5},
		}},
		{render.Version{Minor: 13, Patch: 30}, []string{"image-policy-0", "image-policy-1"}, []place{
			{0, "kind", 4, 1},
			{1, "spec.repositoryDigestMirrors[0].source", 8, 11},
			{1, "spec.repositoryDigestMirrors[0].mirrors[1]", 9, 30},
			{1, "spec.repositoryDigestMirrors[0].mirrors", 9, 12},
		}},
	} {
		c := readTree(t, map[string]string{"install-config.yaml": contentSourcesConfig}, tc.v).Clusters[0]
		var names []string
		for _, o := range c.Objects {
			if o.Kind != manifest.KindICSP || o.ICSP == nil {
				t.Errorf("%v: object %s/%s, want ICSPs alone", tc.v, o.Kind, o.Name)
			}
			names = append(names, o.Name)
		}
		if !slices.Equal(names, tc.names) || len(c.ICSPs) != len(tc.names) {
			t.Fatalf("%v: objects %v (%d ICSPs), want %v", tc.v, names, len(c.ICSPs), tc.names)
		}
		for _, p := range tc.places {
			o := c.Objects[p.object]
			if got := o.Locate(manifest.ParsePath(p.path)); got.Line != p.line || got.Column != p.col {
				t.Errorf("%v: %s %s at %d:%d, want %d:%d", tc.v, o.Name, p.path, got.Line, got.Column, p.line, p.col)
			}
		}
	}
}

// A 4.12 or 4.13 installer pads the index of image-policy-<i> to the
// digits of the number of entries: twelve entries are image-policy-00 to
// image-policy-11, nine image-policy-0 to image-policy-8.
func TestContentSourceICSPNamesPadded(t *testing.T) {
	for n, want := range map[int][]string{12: {"image-policy-00", "image-policy-09", "image-policy-11"}, 9: {"image-policy-0", "image-policy-8"}} {
		list := make([]DigestSource, n)
		for i := range list {
			list[i] = DigestSource{Source: fmt.Sprintf("quay.io/r%d", i), Mirrors: []string{fmt.Sprintf("m.example.com/r%d", i)}}
		}
		icsps, entries := installerICSPs(list, render.Version{Minor: 12, Patch: -1})
		if len(icsps) != n || len(entries) != n {
			t.Fatalf("%d entries: %d ICSPs, %d groups", n, len(icsps), len(entries))
		}
		for _, name := range want {
			if !slices.ContainsFunc(icsps, func(p *operatorv1alpha1.ImageContentSourcePolicy) bool { return p.Name == name }) {
				t.Errorf("%d entries: no %s", n, name)
			}
		}
		if last := icsps[n-1].Spec.RepositoryDigestMirrors; len(last) != 1 || last[0].Source != list[n-1].Source {
			t.Errorf("%d entries: last ICSP holds %v, want the last entry alone", n, last)
		}
	}
}

// Before 4.21 the installer's bootstrap template has no "blocked" line:
// the 4.13 file of imageContentSources is the 4.21 one without it.
func TestBootstrapWithoutBlockedBefore421(t *testing.T) {
	newest := readTree(t, map[string]string{"install-config.yaml": contentSourcesConfig}, render.Version{}).Clusters[0].Bootstrap
	old := readTree(t, map[string]string{"install-config.yaml": contentSourcesConfig}, render.Version{Minor: 13, Patch: -1}).Clusters[0].Bootstrap
	if want := strings.ReplaceAll(string(newest), "blocked = false\n", ""); string(old) != want || !strings.Contains(string(newest), "blocked = false\n") {
		t.Errorf("4.13 bootstrap:\n%s\nwant the 4.21 one without its blocked lines:\n%s", old, newest)
	}
}

func overridesSite(json string) map[string]string {
	return map[string]string{"ci.yaml": `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: sno1
  namespace: sno1
spec:
  clusterName: sno1
  clusterImageSetNameRef: img4.20-x86-64
  installConfigOverrides: |
` + json}
}

// overrideFindings reads the site whose installConfigOverrides is json
// and returns its findings of the given rules, with the whole result.
func overrideFindings(t *testing.T, json string, rules ...string) ([]Finding, *Result) {
	t.Helper()
	res := readTree(t, overridesSite(json), render.Version{})
	var got []Finding
	for _, f := range res.Findings {
		if slices.Contains(rules, f.Rule) {
			got = append(got, f)
		}
	}
	return got, res
}

// requireRefused fails the test for every cluster of res not refused.
func requireRefused(t *testing.T, res *Result) {
	t.Helper()
	for _, c := range res.Clusters {
		if !c.Refused {
			t.Errorf("cluster %s not refused", c.Name)
		}
	}
}

// assisted-service decodes the whole override strictly: the first key its
// install-config type lacks, at any depth, refuses the site, reported at
// the key inside the JSON string; keys match as encoding/json matches
// them (case folded), and only the first unknown one is named.
func TestOverridesUnknownFieldAnywhere(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		line, col  int    // inside the JSON string; the finding is on the key's line 9
		want       string // "" for no finding
	}{
		{"top level", "    {\"capabilities\": {\"baselineCapabilitySet\": \"None\"},\n     \"fipss\": true,\n     \"sshKeys\": \"x\"}\n", 11, 6,
			`installConfigOverrides: json: unknown field "fipss": assisted-service refuses the annotation`},
		{"nested", "    {\"networking\": {\"clusterNetwork\": [\n      {\"cidr\": \"10.128.0.0/14\", \"hostprefix\": 23, \"mtu\": 1400}]}}\n", 11, 51,
			`installConfigOverrides.networking.clusterNetwork[0]: json: unknown field "mtu": assisted-service refuses the annotation`},
		{"platform", "    {\"platform\": {\"baremetal\": {\"apiVIPs\": [\"192.0.2.1\"], \"hosts\": [], \"provisioningBridge\": \"br0\"}}}\n", 10, 72,
			`installConfigOverrides.platform.baremetal: json: unknown field "provisioningBridge"`},
		{"known, case folded", "    {\"FIPS\": true, \"ImageDigestSources\": [{\"source\": \"quay.io/a\", \"mirrors\": [\"m.example.com/a\"]}], \"controlPlane\": {\"fencing\": {\"credentials\": []}}}\n", 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, res := overrideFindings(t, tc.json, RuleOverridesUnknown)
			if tc.want == "" {
				if len(got) != 0 {
					t.Fatalf("findings: %v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Pos.Line != 9 || got[0].At.Line != tc.line || got[0].At.Column != tc.col || !strings.Contains(got[0].Message, tc.want) {
				t.Fatalf("findings %+v at %v, want one at 9, inside at %d:%d, with %q", got, got[0].At, tc.line, tc.col, tc.want)
			}
			requireRefused(t, res)
		})
	}
}

// A value of the wrong type anywhere in the override refuses the site as
// an unknown key does, with encoding/json's words, at the key inside the
// JSON string; the document decoded is the annotation the site gets, so a
// number the generator re-encodes (1e2 is 100 once networking is merged)
// is judged as re-encoded, and the first error in its order is the one.
func TestOverridesValueType(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		line, col  int    // inside the JSON string; the finding is on the key's line 9
		want       string // "" for no finding
	}{
		{"top level", "    {\"sshKey\": \"ssh-ed25519 AAAA\",\n     \"fips\": \"yes\"}\n", 11, 6,
			`installConfigOverrides.fips: json: cannot unmarshal string into Go struct field InstallerConfigBaremetal.fips of type bool: assisted-service refuses the annotation (AgentClusterInstall SpecSynced=False, InputError: Failed to parse 'agent-install.openshift.io/install-config-overrides' annotation), so the spoke never installs; write true or false, unquoted`},
		{"nested", "    {\"networking\": {\"clusterNetwork\": [\n      {\"cidr\": \"10.128.0.0/14\", \"hostPrefix\": \"23\"}]}}\n", 11, 33,
			`installConfigOverrides.networking.clusterNetwork[0].hostPrefix: json: cannot unmarshal string into Go struct field ClusterNetwork.networking.clusterNetwork.hostPrefix of type int`},
		{"a list where an object belongs", "    {\"proxy\": [\"http://proxy.example.com\"]}\n", 10, 6,
			`installConfigOverrides.proxy: json: cannot unmarshal array into Go struct field InstallerConfigBaremetal.proxy of type installcfg.Proxy: `},
		{"before an unknown key", "    {\"baseDomain\": 1, \"fipss\": true}\n", 10, 6,
			`installConfigOverrides.baseDomain: json: cannot unmarshal number into Go struct field InstallerConfigBaremetal.baseDomain of type string`},
		{"re-encoded by the generator", "    {\"networking\": {\"clusterNetwork\": [{\"cidr\": \"10.128.0.0/14\", \"hostPrefix\": 2.3e1}]}}\n", 0, 0, ""},
		{"null and unmodelled types", "    {\"fips\": null, \"featureGates\": 3, \"controlPlane\": {\"fencing\": 1}}\n", 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, res := overrideFindings(t, tc.json, RuleOverridesValueType, RuleOverridesUnknown)
			if tc.want == "" {
				if len(got) != 0 {
					t.Fatalf("findings: %v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Rule != RuleOverridesValueType || got[0].Pos.Line != 9 || got[0].At.Line != tc.line || got[0].At.Column != tc.col || !strings.Contains(got[0].Message, tc.want) {
				t.Fatalf("findings %+v, want one of %s at 9, inside at %d:%d, with %q", got, RuleOverridesValueType, tc.line, tc.col, tc.want)
			}
			requireRefused(t, res)
		})
	}
}

// `mirrorlint clusters` says what an install-config's cluster is made
// from: the IDMS, the ICSPs, or nothing when it sets no mirrors.
func TestInstallConfigReason(t *testing.T) {
	for _, c := range []struct {
		cl   Cluster
		want string
	}{
		{Cluster{Kind: "install-config"}, "which sets no mirrors"},
		{Cluster{Kind: "install-config", IDMSs: make([]*configv1.ImageDigestMirrorSet, 1)}, "the IDMS image-digest-mirror"},
		{Cluster{Kind: "install-config", ICSPs: make([]*operatorv1alpha1.ImageContentSourcePolicy, 1)}, "the ImageContentSourcePolicy image-policy from"},
		{Cluster{Kind: "install-config", ICSPs: make([]*operatorv1alpha1.ImageContentSourcePolicy, 2), Version: render.Version{Minor: 13, Patch: -1}}, "the ImageContentSourcePolicies image-policy-<i> from"},
	} {
		if got := c.cl.Reason(); !strings.Contains(got, c.want) {
			t.Errorf("%+v: %q, want %q in it", c.cl, got, c.want)
		}
	}
}

// A release outside the modelled ones, read from a HostedCluster's
// release image or a site's ClusterImageSet, is checked as the nearest
// modelled release, and said; a modelled one is taken as it is.
func TestReleaseOutsideTheModelledOnes(t *testing.T) {
	hosted := func(tag string) string {
		return "apiVersion: hypershift.openshift.io/v1beta1\nkind: HostedCluster\nmetadata:\n  name: h\n  namespace: clusters\nspec:\n  release:\n    image: quay.io/openshift-release-dev/ocp-release:" + tag + "\n"
	}
	for tag, want := range map[string]struct {
		minor int
		note  bool
	}{"4.10.3-x86_64": {12, true}, "4.19.2-x86_64": {19, false}, "4.30.0-x86_64": {21, true}} {
		res := readTree(t, map[string]string{"hc.yaml": hosted(tag)}, render.Version{})
		var notes []Finding
		for _, f := range res.Findings {
			if f.Rule == RuleReleaseUnmodelled {
				notes = append(notes, f)
			}
		}
		if len(res.Clusters) != 1 || res.Clusters[0].Version.Minor != want.minor || (len(notes) == 1) != want.note {
			t.Errorf("%s: clusters %d, version %v, notes %v; want 4.%d, note %v", tag, len(res.Clusters), res.Clusters[0].Version, notes, want.minor, want.note)
		}
		if want.note && (notes[0].Pos.Line != 8 || notes[0].Severity != check.Info) {
			t.Errorf("%s: note %+v, want an info at the image's line 8", tag, notes[0])
		}
	}
}
