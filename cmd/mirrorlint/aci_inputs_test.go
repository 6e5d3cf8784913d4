package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"github.com/mirrorlint/mirrorlint/internal/wire"
)

// handWrittenRepo commits a hub repository laid out as hand-written ZTP
// repositories are: a hub with its mirrors, and a directory per spoke
// whose kustomization lists the spoke's AgentClusterInstall. sno1's lists
// a ClusterInstance of the same spoke too; sno2's holds a ClusterInstance
// it does not list (an attempt at moving to one) and repeats a mirror;
// sno3's does not list its AgentClusterInstall; sno4's sets a
// sourcePolicy.
func handWrittenRepo(t *testing.T) string {
	t.Helper()
	aci := func(name, ann string) string {
		return fmt.Sprintf(`apiVersion: extensions.hive.openshift.io/v1beta1
kind: AgentClusterInstall
metadata:
  name: %[1]s
  namespace: %[1]s
  annotations:
    agent-install.openshift.io/install-config-overrides: '%[2]s'
spec:
  clusterDeploymentRef:
    name: %[1]s
  imageSetRef:
    name: img4.18.3-x86-64-appsub
  provisionRequirements:
    controlPlaneAgents: 1
`, name, ann)
	}
	ci := func(name string) string { return testtree.ClusterInstance(name, "img4.18.3-x86-64-appsub", "") }
	files := testtree.Hub("clusters/hub", map[string]string{"quay.io/openshift-release-dev/ocp-release": "mirror.example.com/ocp/release"})
	maps.Copy(files, map[string]string{
		"clusters/kustomization.yaml":               "resources: [hub, sno1, sno2, sno3, sno4]\n",
		"clusters/sno1/kustomization.yaml":          "resources: [03-agentclusterinstall.yaml, clusterinstance.yaml]\n",
		"clusters/sno1/03-agentclusterinstall.yaml": aci("sno1", `{"networking":{"networkType":"OVNKubernetes"}}`),
		"clusters/sno1/clusterinstance.yaml":        ci("sno1"),
		"clusters/sno2/kustomization.yaml":          "resources: [03-agentclusterinstall.yaml]\n",
		"clusters/sno2/03-agentclusterinstall.yaml": aci("sno2",
			`{"imageDigestSources":[{"source":"quay.io/openshift-release-dev/ocp-release","mirrors":["mirror.example.com/ocp/release","mirror.example.com/ocp/release"]}]}`),
		"clusters/sno2/xxx-clusterinstance.yaml":    ci("ai-sno2"),
		"clusters/sno3/kustomization.yaml":          "resources: []\n",
		"clusters/sno3/03-agentclusterinstall.yaml": aci("sno3", `{"fips": "yes"}`),
		"clusters/sno4/kustomization.yaml":          "resources: [03-agentclusterinstall.yaml]\n",
		"clusters/sno4/03-agentclusterinstall.yaml": aci("sno4",
			`{"imageDigestSources":[{"source":"quay.io/openshift-release-dev/ocp-release","mirrors":["mirror.example.com/ocp/release"],"sourcePolicy":"NeverContactSource"}]}`),
	})
	dir := testtree.Write(t, files)
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "spokes")
	return dir
}

// Each hand-written AgentClusterInstall a kustomization applies is a
// spoke of `clusters`, with the hub's mirrors; one a ClusterInstance of
// the tree declares too is that site's cluster, not a second one; an
// unlisted one (or ClusterInstance) creates none and is said so. Its
// annotation is linted where it is written, and what assisted-service
// refuses there (sourcePolicy) refuses the spoke.
func TestHandWrittenAgentClusterInstalls(t *testing.T) {
	t.Chdir(handWrittenRepo(t))
	l := fleetClusters(t, ".")
	var names []string
	for _, c := range l.Clusters {
		if strings.HasPrefix(c.Name, "ztp-spoke/") {
			names = append(names, c.Name)
			if c.Name == "ztp-spoke/sno1" && (c.Kinds["AgentClusterInstall"] != 1 || c.Kinds["ClusterInstance"] != 1 || !strings.HasPrefix(c.Reason, "ZTP spoke: ")) {
				t.Errorf("sno1 is not the site's cluster with the AgentClusterInstall among its inputs: %+v", c)
			}
		}
	}
	// sno3 is not applied; sno4 is refused, and says so.
	if want := []string{"ztp-spoke/sno1", "ztp-spoke/sno2", "ztp-spoke/sno4"}; !slices.Equal(names, want) {
		t.Errorf("spokes %q, want %q", names, want)
	}
	got := lintJSON(t, ".")
	for _, want := range []string{
		"agent-cluster-install-duplicates-site clusters/sno1/03-agentclusterinstall.yaml:10:11",
		"install-config-duplicate-mirror clusters/sno2/03-agentclusterinstall.yaml:7:180",
		"install-config-overrides-unknown-field clusters/sno4/03-agentclusterinstall.yaml:7:181",
		"not-in-kustomization clusters/sno2/xxx-clusterinstance.yaml:1:1",
		"not-in-kustomization clusters/sno3/03-agentclusterinstall.yaml:1:1",
	} {
		if !slices.ContainsFunc(got, func(f string) bool { return strings.HasPrefix(f, want+" ") }) {
			t.Errorf("no %s in\n%s", want, strings.Join(got, "\n"))
		}
	}
	if slices.ContainsFunc(got, func(f string) bool {
		return strings.Contains(f, "sno3/03-agentclusterinstall.yaml:7") || strings.HasPrefix(f, "mirror-duplicate ")
	}) {
		t.Errorf("the unlisted AgentClusterInstall is linted, or the repeated mirror reported twice:\n%s", strings.Join(got, "\n"))
	}
	// The pre-commit path: a committed AgentClusterInstall gives what the
	// full run gives of it.
	for _, file := range []string{"clusters/sno1/03-agentclusterinstall.yaml", "clusters/sno2/03-agentclusterinstall.yaml", "clusters/sno4/03-agentclusterinstall.yaml"} {
		var want []string
		for _, f := range got {
			if strings.Contains(f, " "+file+":") {
				want = append(want, f)
			}
		}
		if only := lintJSON(t, file); !slices.Equal(only, want) {
			t.Errorf("lint %s:\n%s\nwant:\n%s", file, strings.Join(only, "\n"), strings.Join(want, "\n"))
		}
	}
	r := mlRun(t, "", "clusters", "--config", "none", ".")
	if !strings.Contains(r.stdout, "clusters/sno3/03-agentclusterinstall.yaml is not listed in clusters/sno3/kustomization.yaml: kustomize does not apply it, so AgentClusterInstall sno3 creates no cluster") ||
		!strings.Contains(r.stdout, "  stopped:  clusters/sno4/03-agentclusterinstall.yaml:9:3: assisted-service refuses this AgentClusterInstall") {
		t.Errorf("clusters:\n%s", r.stdout)
	}
}

// TestOverridesValueReportedOnce: a mirror openshift-install refuses,
// written inside a multi-line installConfigOverrides (or annotation), is
// reported once, by the install-config rule on the key's line with the
// value's own place beside it, not again by the format rules where it
// reaches the spoke's ImageDigestMirrorSet.
func TestOverridesValueReportedOnce(t *testing.T) {
	src, err := os.ReadFile("../../internal/rules/testdata/install-config-mirror-format/bad-overrides-block/clusterinstance.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(testtree.Write(t, map[string]string{"clusterinstance.yaml": string(src)}))
	r := mlRun(t, "", "lint", "--config", "none", "--no-cache", "--format", "json", ".")
	var doc struct{ Findings []wire.Finding }
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var places []string
	for _, f := range doc.Findings {
		switch f.Rule {
		case "install-config-mirror-format":
			if f.Line != 12 || len(f.Related) != 1 {
				t.Errorf("install-config-mirror-format at line %d with %d related places, want the key's line 12 and the value's place", f.Line, len(f.Related))
				continue
			}
			places = append(places, fmt.Sprintf("%d:%d", f.Related[0].Line, f.Related[0].Column))
		case "mirror-format", "source-format", "repository-lowercase":
			t.Errorf("%s at line %d says again what install-config-mirror-format reports", f.Rule, f.Line)
		}
	}
	// The source, the upper-case mirror and the tagged one, each at its
	// own place inside the JSON.
	slices.Sort(places)
	if want := []string{"16:21", "17:23", "17:58"}; !slices.Equal(places, want) {
		t.Errorf("the values' places %q, want %q\n%s", places, want, r.stdout)
	}
}
