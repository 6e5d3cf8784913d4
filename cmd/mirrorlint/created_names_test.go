package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// alikeRepo is a repository of two hubs, each an AgentServiceConfig
// (always named agent) with its mirror ConfigMap (named alike, as copies of
// one example are), whose registries.conf writes a prefix assisted-service
// ignores; and of two install-configs of one metadata.name.
func alikeRepo(t *testing.T) string {
	t.Helper()
	hub := func(x string) string {
		return testtree.HubFile("custom-registries", fmt.Sprintf(`[[registry]]
prefix = "registry.redhat.io"
location = "registry.redhat.io/%[1]s"

[[registry.mirror]]
  location = "registry.example.com:5000/%[1]s"
`, x))
	}
	ic := func(mirror string) string {
		return "apiVersion: v1\nmetadata:\n  name: ocp4\nimageDigestSources:\n- source: quay.io/openshift-release-dev/ocp-release\n  mirrors: [" + mirror + "]\n"
	}
	dir := testtree.Write(t, map[string]string{
		"clusters/hub-a/asc.yaml":          hub("a"),
		"clusters/hub-b/asc.yaml":          hub("b"),
		"day0/vmware/install-config.yaml":  ic("vmware.example.com/ocp"),
		"day0/abi/sno/install-config.yaml": ic("sno.example.com/ocp"),
	})
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "hubs")
	return dir
}

// Every hub's registries.conf is linted, in the cluster of that hub's
// spokes, on a run over the tree and on the pre-commit path given the
// second hub's file alone, under one name.
func TestEveryHubLinted(t *testing.T) {
	t.Chdir(alikeRepo(t))
	a := "hub-mirror-prefix-ignored clusters/hub-a/asc.yaml:9:5 [ztp-spoke/clusters/hub-a/spokes-of-agent]"
	b := "hub-mirror-prefix-ignored clusters/hub-b/asc.yaml:9:5 [ztp-spoke/clusters/hub-b/spokes-of-agent]"
	var hubs []string
	for _, f := range lintJSON(t, ".") {
		if strings.HasPrefix(f, "hub-") {
			hubs = append(hubs, f)
		}
	}
	if want := []string{a, b}; !slices.Equal(hubs, want) {
		t.Errorf("whole tree: %q, want %q", hubs, want)
	}
	if got := lintJSON(t, "clusters/hub-b/asc.yaml"); !slices.Equal(got, []string{b}) {
		t.Errorf("pre-commit on hub-b: %q, want %q", got, b)
	}
	var names []string
	for _, c := range fleetClusters(t, ".").Clusters {
		names = append(names, c.Name)
	}
	for _, want := range []string{"ztp-spoke/clusters/hub-a/spokes-of-agent", "ztp-spoke/clusters/hub-b/spokes-of-agent"} {
		if !slices.Contains(names, want) {
			t.Errorf("clusters %q, want %s among them", names, want)
		}
	}
}

// Two install-configs of one metadata.name are two clusters, each
// selected by --cluster with its name or the name's end, in render and
// resolve; the bare name selects neither and lists them.
func TestInstallConfigsNamedAlike(t *testing.T) {
	t.Chdir(alikeRepo(t))
	image := "quay.io/openshift-release-dev/ocp-release@sha256:" + strings.Repeat("a", 64)
	for name, mirror := range map[string]string{
		"install-config/day0/vmware/ocp4":  "vmware.example.com/ocp",
		"vmware/ocp4":                      "vmware.example.com/ocp",
		"install-config/day0/abi/sno/ocp4": "sno.example.com/ocp",
		"sno/ocp4":                         "sno.example.com/ocp",
	} {
		r := mlRun(t, "", "render", "--config", "none", "--cluster", name, ".")
		if r.code != exitOK || !strings.Contains(r.stdout, mirror) {
			t.Errorf("render --cluster %s: exit %d, want 0 and %s\n%s\n%s", name, r.code, mirror, r.stdout, r.stderr)
		}
		r = mlRun(t, "", "resolve", "--config", "none", "--cluster", name, image, ".")
		if r.code != exitOK || !strings.Contains(r.stdout, mirror) {
			t.Errorf("resolve --cluster %s: exit %d, want 0 and %s\n%s\n%s", name, r.code, mirror, r.stdout, r.stderr)
		}
	}
	both := "did you mean install-config/day0/abi/sno/ocp4, install-config/day0/vmware/ocp4?"
	for _, name := range []string{"install-config/ocp4", "ocp4"} {
		for _, cmd := range [][]string{{"render"}, {"resolve"}, {"lint"}} {
			args := append(append(cmd, "--config", "none", "--cluster", name), ".")
			if cmd[0] == "resolve" {
				args = append(append(cmd, "--config", "none", "--cluster", name), image, ".")
			}
			r := mlRun(t, "", args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, both) {
				t.Errorf("%s --cluster %s: exit %d, stderr:\n%s\nwant exit 2 and %q", cmd[0], name, r.code, r.stderr, both)
			}
		}
	}
}

// Two SiteConfigs of one clusterName (a site's copy for another hub) are
// two spokes, each with the policies its own labels bind it to.
func TestSitesNamedAlike(t *testing.T) {
	ztpFleetCopy(t, "")
	testtree.WriteAt(t, ".", map[string]string{"staging/sno1.yaml": `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata:
  name: sno1
  namespace: sno1
spec:
  clusterImageSetNameRef: openshift-4.20
  clusters:
  - clusterName: sno1
    clusterLabels:
      common: "true"
      group-du-standard: ""
      du-profile: "4.20"
`})
	policies := map[string][]string{}
	for _, c := range fleetClusters(t, ".").Clusters {
		if strings.HasPrefix(c.Name, "ztp-spoke/") {
			policies[c.Name] = []string{}
			for _, p := range c.Policies {
				policies[c.Name] = append(policies[c.Name], p.Policy)
			}
		}
	}
	want := map[string][]string{
		"ztp-spoke/siteconfig/sno1": {"Policy/ztp-common/common-config-policy", "Policy/ztp-group/group-du-sno-config-policy"},
		"ztp-spoke/staging/sno1":    {"Policy/ztp-common/common-config-policy", "Policy/ztp-group/group-du-standard-config-policy"},
		"ztp-spoke/sno2":            {"Policy/ztp-common/common-config-policy", "Policy/ztp-group/group-du-standard-config-policy", "Policy/ztp-site/sno2-mirrors"},
	}
	if fmt.Sprint(policies) != fmt.Sprint(want) {
		t.Errorf("sites and their policies:\n%v\nwant\n%v", policies, want)
	}
	r := mlRun(t, "", "render", "--config", "none", "--cluster", "sno1", ".")
	if r.code != exitUsage || !strings.Contains(r.stderr, "did you mean ztp-spoke/siteconfig/sno1, ztp-spoke/staging/sno1?") {
		t.Errorf("render --cluster sno1: exit %d\n%s", r.code, r.stderr)
	}
	r = mlRun(t, "", "render", "--config", "none", "--cluster", "staging/sno1", ".")
	if r.code != exitOK {
		t.Errorf("render --cluster staging/sno1: exit %d\n%s", r.code, r.stderr)
	}
}
