package inputs

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// aciFile is a hand-written AgentClusterInstall named name in namespace
// ns for ClusterDeployment cd, with the overrides annotation ann ("" for
// none) and the spec lines extra.
func aciFile(name, ns, cd, ann, extra string) string {
	s := fmt.Sprintf("apiVersion: extensions.hive.openshift.io/v1beta1\nkind: AgentClusterInstall\nmetadata:\n  name: %s\n  namespace: %s\n", name, ns)
	if ann != "" {
		s += "  annotations:\n    agent-install.openshift.io/install-config-overrides: '" + ann + "'\n"
	}
	return s + fmt.Sprintf("spec:\n  clusterDeploymentRef:\n    name: %s\n  imageSetRef:\n    name: img4.10.5-x86-64-appsub\n  provisionRequirements:\n    controlPlaneAgents: 1\n%s", cd, extra)
}

// mirrorsCM is a ConfigMap in namespace ns holding registries.conf conf.
func mirrorsCM(name, ns, conf string) string {
	return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: %s\ndata:\n  registries.conf: |\n%s", name, ns, conf)
}

const mirrorRef = "  mirrorRegistryRef:\n    name: sno1-mirrors\n    namespace: sno1\n"

// rulesOf are the findings of res of the given rules.
func rulesOf(res *Result, rules ...string) []Finding {
	var out []Finding
	for _, f := range res.Findings {
		if slices.Contains(rules, f.Rule) {
			out = append(out, f)
		}
	}
	return out
}

// A hand-written AgentClusterInstall creates its spoke as a site does:
// named after its ClusterDeployment, the hub's mirrors with the
// annotation decoded over them (what it leaves out of an entry is the
// hub entry's), its release from the ClusterImageSet's name (4.10, checked
// as the oldest modelled, and said at imageSetRef; before 4.14 the
// mirrors are imageContentSources, one ICSP each), the objects placed at
// the values they come from; and the annotation is checked where it is
// written, with the override rules, in its own name.
func TestAgentClusterInstallSpoke(t *testing.T) {
	res := readTree(t, map[string]string{
		"hub/hub.yaml": hubFile("quay.io/acme", "hub.example.com/acme") + "---\n" +
			mirrorsCM("other", "multicluster-engine", "    [[registry]]\n    location = \"quay.io/other\"\n    [[registry.mirror]]\n    location = \"hub.example.com/other\"\n"),
		"spokes/sno1/aci.yaml": aciFile("sno1-install", "sno1", "sno1",
			`{"imageContentSources":[{"source":"quay.io/acme"},{"source":"quay.io/extra","mirrors":["m.example.com/extra:v1"]}]}`, ""),
	}, render.Version{})
	if len(res.Sites) != 0 {
		t.Errorf("sites %v: an AgentClusterInstall has no labels to place policies by", res.Sites)
	}
	if len(res.Clusters) != 1 {
		t.Fatalf("clusters %d, want the spoke alone (its hub is used)", len(res.Clusters))
	}
	c := res.Clusters[0]
	if c.Name != "sno1" || c.Kind != "ztp-spoke" || !c.ByHand || c.Site != nil || c.Refused || c.Version.Minor != 12 ||
		!strings.Contains(c.Reason(), "hand-written AgentClusterInstall") {
		t.Fatalf("cluster %+v", c)
	}
	if got, want := mirrorsOf(c), []string{"hub.example.com/acme", "m.example.com/extra:v1"}; !slices.Equal(got, want) {
		t.Errorf("mirrors %v, want %v", got, want)
	}
	if len(c.Inputs) != 3 || c.Inputs[0].Kind != "AgentClusterInstall" {
		t.Errorf("inputs %v, want the AgentClusterInstall and the hub's two objects", c.Inputs)
	}
	// The extra entry's mirror is placed in the annotation; the mirror the first inherits, in the hub file.
	icspMirror := []any{"spec", "repositoryDigestMirrors", 0, "mirrors", 0}
	if len(c.Objects) != 2 || c.Objects[1].Name != "image-policy-1" {
		t.Fatalf("objects %v, want image-policy-0 and image-policy-1", c.Objects)
	}
	if first, extra := c.Objects[0].Locate(icspMirror), c.Objects[1].Locate(icspMirror); extra.Column != 146 || !strings.HasSuffix(first.File, "hub.yaml") || first.Line != 13 {
		t.Errorf("mirrors placed at %v and %v", first, extra)
	}
	inherits := rulesOf(res, RuleOverridesInherits)
	format := rulesOf(res, RuleInstallMirrorFormat)
	notes := rulesOf(res, RuleReleaseUnmodelled)
	if len(inherits) != 1 || !strings.HasPrefix(inherits[0].Message, "install-config-overrides.imageContentSources[0] has no mirrors: assisted-service decodes it over the hub's entry 0") ||
		inherits[0].Pos.Line != 7 || inherits[0].Pos.Column != 83 {
		t.Errorf("inherits: %v", inherits)
	}
	if len(format) != 1 || !strings.HasPrefix(format[0].Message, `install-config-overrides.imageContentSources[1].mirrors[0]: Invalid value: "m.example.com/extra:v1"`) || format[0].Pos.Column != 146 {
		t.Errorf("mirror format: %v", format)
	}
	if len(notes) != 1 || notes[0].Pos.Line != 12 || !strings.HasPrefix(notes[0].Message, "imageSetRef img4.10.5-x86-64-appsub names OpenShift 4.10") {
		t.Errorf("release notes: %v", notes)
	}
}

// What assisted-service refuses in the annotation refuses the spoke: JSON
// it cannot parse, or a document that is no object.
func TestAgentClusterInstallRefused(t *testing.T) {
	for ann, rule := range map[string]string{
		`{"fips": true,}`: RuleOverridesJSON,
		`["fips"]`:        RuleOverridesValueType,
		`{"imageDigestSources": [{"source": "quay.io/a", "mirrors": ["m.example.com/a"], "sourcePolicy": "NeverContactSource"}]}`: RuleOverridesUnknown,
	} {
		res := readTree(t, map[string]string{"aci.yaml": aciFile("sno1", "sno1", "sno1", ann, "")}, render.Version{})
		got := rulesOf(res, RuleOverridesJSON, RuleOverridesValueType, RuleOverridesUnknown)
		if len(got) != 1 || got[0].Rule != rule || got[0].Pos.Line != 7 || !strings.Contains(got[0].Message, "assisted-service refuses the annotation") {
			t.Errorf("%s: findings %v, want one %s on line 7", ann, got, rule)
		}
		requireRefused(t, res)
	}
}

// The ConfigMap an AgentClusterInstall names in spec.mirrorRegistryRef
// replaces the hub's mirrors for its spoke, merged with nothing (the hub
// then installs no spoke of the tree and has its own cluster); an empty
// registries.conf leaves the hub's; one assisted-service cannot read,
// the v1 format included (which the hub's file is only ignored for),
// refuses the spoke; a ConfigMap the tree lacks leaves its mirrors
// unknown, and not the hub's.
func TestAgentClusterInstallMirrorRegistryRef(t *testing.T) {
	const own = "    [[registry]]\n    location = \"quay.io/own\"\n    [[registry.mirror]]\n    location = \"own.example.com/own\"\n"
	for _, tc := range []struct {
		name, cm string
		mirrors  []string // the spoke's
		hubUsed  bool
		refused  string // the finding's message, "" when not refused
	}{
		{"replaces the hub's", mirrorsCM("sno1-mirrors", "sno1", own), []string{"own.example.com/own"}, false, ""},
		{"in no namespace", strings.Replace(mirrorsCM("sno1-mirrors", "sno1", own), "  namespace: sno1\n", "", 1), []string{"own.example.com/own"}, false, ""},
		{"of another namespace", mirrorsCM("sno1-mirrors", "other", own), nil, false, ""},
		{"empty", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sno1-mirrors\n  namespace: sno1\ndata:\n  registries.conf: \"\"\n", []string{"hub.example.com/acme"}, true, ""},
		{"no key", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sno1-mirrors\n  namespace: sno1\ndata:\n  ca-bundle.crt: x\n", nil, false,
			"ConfigMap sno1/sno1-mirrors does not contain registries.conf key: assisted-service refuses the AgentClusterInstall naming it at"},
		{"v1 format", mirrorsCM("sno1-mirrors", "sno1", "    unqualified-search-registries = [\"registry.access.redhat.com\"]\n"), nil, false,
			"failed to find registry key in toml tree: assisted-service refuses the AgentClusterInstall naming it at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := readTree(t, map[string]string{
				"hub.yaml":      hubFile("quay.io/acme", "hub.example.com/acme"),
				"sno1/aci.yaml": aciFile("sno1", "sno1", "sno1", "", mirrorRef),
				"sno1/cm.yaml":  tc.cm,
			}, render.Version{})
			var spoke *Cluster
			hubUsed := true
			for _, c := range res.Clusters {
				switch c.Name {
				case "sno1":
					spoke = c
				case "spokes-of-agent":
					hubUsed = false
				}
			}
			if spoke == nil {
				t.Fatalf("no spoke among %d clusters", len(res.Clusters))
			}
			if got := mirrorsOf(spoke); !slices.Equal(got, tc.mirrors) || hubUsed != tc.hubUsed {
				t.Errorf("mirrors %v, hub used %v; want %v, %v", got, hubUsed, tc.mirrors, tc.hubUsed)
			}
			got := rulesOf(res, RuleHubConfigMap, RuleHubV1Format)
			if tc.refused == "" {
				if len(got) > 0 || spoke.Refused {
					t.Errorf("refused %v: %v", spoke.Refused, got)
				}
				return
			}
			if len(got) != 1 || got[0].Rule != RuleHubConfigMap || !strings.Contains(got[0].Message, tc.refused) || !spoke.Refused {
				t.Errorf("refused %v: %v, want one %s with %q", spoke.Refused, got, RuleHubConfigMap, tc.refused)
			}
		})
	}
}

// A hand-written AgentClusterInstall for the ClusterDeployment a site
// renders (<clusterName>/<clusterName>) is that site's spoke, not
// another: one cluster, with the site's mirrors and the AgentClusterInstall
// among its inputs, and a warning at its clusterDeploymentRef; its
// annotation is still checked. One of another namespace is another
// spoke, and the two are told apart by where they are declared.
func TestAgentClusterInstallOfASite(t *testing.T) {
	site := `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: sno1
  namespace: sno1
spec:
  clusterName: sno1
  clusterImageSetNameRef: img4.20-x86-64
  installConfigOverrides: '{"imageDigestSources":[{"source":"quay.io/site","mirrors":["site.example.com/site"]}]}'
`
	res, dirOf := readAt(t, map[string]string{
		"sno1/clusterinstance.yaml": site,
		"sno1/aci.yaml": aciFile("sno1", "sno1", "sno1",
			`{"imageDigestSources":[{"source":"quay.io/hand","mirrors":["hand.example.com/hand"],"sourcePolicy":"NeverContactSource"}]}`, ""),
		"lab/aci.yaml": aciFile("sno1", "lab", "sno1", `{"imageContentSources":[{"source":"quay.io/lab","mirrors":["lab.example.com/lab"]}]}`, ""),
	})
	got := map[string][]string{}
	var site1 *Cluster
	for i, n := range res.Names(dirOf) {
		got[n] = mirrorsOf(res.Clusters[i])
		if n == "ztp-spoke/sno1/sno1" {
			site1 = res.Clusters[i]
		}
	}
	want := map[string][]string{"ztp-spoke/sno1/sno1": {"site.example.com/site"}, "ztp-spoke/lab/sno1": {"lab.example.com/lab"}}
	if len(got) != len(want) || !slices.Equal(got["ztp-spoke/sno1/sno1"], want["ztp-spoke/sno1/sno1"]) || !slices.Equal(got["ztp-spoke/lab/sno1"], want["ztp-spoke/lab/sno1"]) {
		t.Fatalf("clusters %v, want %v", got, want)
	}
	if site1.Site == nil || site1.ByHand || len(site1.Inputs) != 2 || site1.Inputs[1].Kind != "AgentClusterInstall" {
		t.Errorf("the site's cluster: %+v", site1)
	}
	dup := rulesOf(res, RuleACIDuplicatesSite)
	if len(dup) != 1 || !strings.HasSuffix(dup[0].Pos.File, "sno1/aci.yaml") || dup[0].Pos.Line != 10 ||
		!strings.Contains(dup[0].Message, "AgentClusterInstall/sno1 declares the spoke sno1 that ClusterInstance/sno1") ||
		!strings.Contains(dup[0].Message, "forced ownership") {
		t.Errorf("duplicate warnings %v", dup)
	}
	if unknown := rulesOf(res, RuleOverridesUnknown); len(unknown) != 1 || !strings.HasSuffix(unknown[0].Pos.File, "sno1/aci.yaml") {
		t.Errorf("the hand-written annotation is not checked: %v", unknown)
	}
}

// A hand-written AgentClusterInstall whose ManagedCluster the tree holds
// is a spoke with that ManagedCluster's labels: a site of the result, the
// ManagedCluster among its cluster's inputs (its labels decide the
// policies the spoke gets). One whose ManagedCluster has a label that is
// no string is refused by the API server: reported, and no site.
func TestAgentClusterInstallManagedCluster(t *testing.T) {
	mc := func(name, labels string) string {
		return fmt.Sprintf("apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: %s\n  labels:\n%sspec:\n  hubAcceptsClient: true\n", name, labels)
	}
	res := readTree(t, map[string]string{
		"spokes/sno1/aci.yaml": aciFile("sno1", "sno1", "sno1", "", ""),
		"spokes/sno1/mc.yaml":  mc("sno1", "    common: \"true\"\n"),
		"spokes/sno2/aci.yaml": aciFile("sno2", "sno2", "sno2", "", ""),
		"spokes/sno2/mc.yaml":  mc("sno2", "    common: true\n"),
	}, render.Version{})
	if len(res.Sites) != 1 || res.Sites[0].Name != "sno1" || res.Sites[0].Labels["common"] != "true" {
		t.Fatalf("sites %v, want sno1's", res.Sites)
	}
	if len(res.Clusters) != 2 {
		t.Fatalf("clusters %d, want the two spokes", len(res.Clusters))
	}
	sno1, sno2 := res.Clusters[0], res.Clusters[1]
	if sno1.Site != res.Sites[0] || sno1.ManagedCluster == nil || !slices.Contains(sno1.Inputs, sno1.ManagedCluster) ||
		!strings.Contains(sno1.Reason(), "; its labels from ManagedCluster sno1 (") {
		t.Errorf("sno1: site %v, inputs %v, reason %q", sno1.Site, sno1.Inputs, sno1.Reason())
	}
	if sno2.Site != nil || sno2.ManagedCluster == nil || !strings.Contains(sno2.Reason(), "the API server refuses its ManagedCluster") {
		t.Errorf("sno2: site %v, reason %q", sno2.Site, sno2.Reason())
	}
	labels := rulesOf(res, RuleSiteLabels)
	if len(labels) != 1 || labels[0].Component != "kube-apiserver" || !strings.HasSuffix(labels[0].Pos.File, "spokes/sno2/mc.yaml") || labels[0].Pos.Line != 6 {
		t.Errorf("site-labels findings %+v, want sno2's ManagedCluster's label", labels)
	}
}

// The ManagedCluster written beside a hand-written AgentClusterInstall
// that a site declares too is another copy of the one the site renders:
// the site's labels are its own, so it is no input of the site's cluster.
func TestDuplicateSiteManagedCluster(t *testing.T) {
	res := readTree(t, map[string]string{
		"sno1/clusterinstance.yaml": "apiVersion: siteconfig.open-cluster-management.io/v1alpha1\nkind: ClusterInstance\nmetadata:\n  name: sno1\n  namespace: sno1\nspec:\n  clusterName: sno1\n",
		"sno1/aci.yaml":             aciFile("sno1", "sno1", "sno1", "", ""),
		"sno1/mc.yaml":              "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: sno1\n  labels:\n    common: \"true\"\n",
	}, render.Version{})
	if len(res.Clusters) != 1 {
		t.Fatalf("clusters %d, want the site's", len(res.Clusters))
	}
	c := res.Clusters[0]
	if c.ByHand || c.Site == nil || c.Site.Kind != "ClusterInstance" || c.Site.Labels["common"] != "" ||
		slices.ContainsFunc(c.Inputs, func(o *manifest.Object) bool { return o.Kind == "ManagedCluster" }) {
		t.Errorf("the site's cluster: site %+v, inputs %v", c.Site, c.Inputs)
	}
}
