package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// pgt is a PolicyGenTemplate delivering one IDMS for source, mirrored at
// mirror, bound by bindingRules.
func pgt(name, rules, source, mirror string) string {
	return `apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
metadata:
  name: "` + name + `"
  namespace: "ztp-site"
spec:
  bindingRules:
` + rules + `
  sourceFiles:
    - fileName: disconnected-registry/DisconnectedIDMS.yaml
      policyName: "config-policy"
      metadata:
        name: ` + name + `-idms
      spec:
        imageDigestMirrors:
        - source: ` + source + `
          mirrors:
          - ` + mirror + `
`
}

// ACM's import labels every managed cluster name=<its name>: a binding on
// name reaches that site. It also sets clusterID and the OpenShift
// version from what it finds on the cluster: a binding on their values is
// listed as one only the hub can evaluate, and its policy is not linted
// with the site, rather than taken not to match. vendor is detected only
// where the ManagedCluster is written with vendor: auto-detect, which a
// SiteConfig's is not: a binding on it does not reach these sites.
func TestZTPFleetImportLabels(t *testing.T) {
	ztpFleetCopy(t, "")
	files := map[string]string{
		"policygentemplates/site-sno1.yaml":  pgt("site-sno1", `    name: "sno1"`, "quay.io/sno1", "mirror-c.example.com/sno1"),
		"policygentemplates/ocp-420.yaml":    pgt("ocp-420", `    openshiftVersion-major-minor: "4.20"`, "quay.io/vendor", "mirror-v.example.com/vendor"),
		"policygentemplates/vendor-ocp.yaml": pgt("vendor-ocp", `    vendor: "OpenShift"`, "quay.io/other", "mirror-o.example.com/other"),
		"policygentemplates/with-id.yaml":    pgt("with-id", `    clusterID: ""`+"\n"+`    sites: "sno2"`, "quay.io/withid", "mirror-i.example.com/withid"),
		"policygentemplates/kustomization.yaml": "generators:\n- common-ranGen.yaml\n- group-du-sno-ranGen.yaml\n- group-du-3node-ranGen.yaml\n- group-du-standard.yaml\n" +
			"- site-sno1.yaml\n- ocp-420.yaml\n- vendor-ocp.yaml\n- with-id.yaml\nresources:\n- ns.yaml\n",
	}
	testtree.WriteAt(t, ".", files)
	l := fleetClusters(t, ".")
	policies := map[string][]string{}
	undecided := map[string][]string{}
	for _, c := range l.Clusters {
		for _, g := range c.Policies {
			policies[c.Name] = append(policies[c.Name], g.Policy+" "+strings.Join(g.Because, "; "))
		}
		for _, u := range c.Undecided {
			undecided[c.Name] = append(undecided[c.Name], u.Policy+" "+strings.Join(u.Open, "; "))
		}
	}
	if got := policies["ztp-spoke/sno1"]; !slices.Contains(got, "Policy/ztp-site/site-sno1-config-policy name=sno1") {
		t.Errorf("sno1 does not get the policy bound to name=sno1: %q", got)
	}
	if got := policies["ztp-spoke/sno2"]; !slices.Contains(got, "Policy/ztp-site/with-id-config-policy clusterID (set at import); sites=sno2") {
		t.Errorf("sno2 does not get the policy bound to clusterID and sites=sno2: %q", got)
	}
	for _, site := range []string{"ztp-spoke/sno1", "ztp-spoke/sno2"} {
		if got := undecided[site]; !slices.Equal(got, []string{"Policy/ztp-site/ocp-420-config-policy openshiftVersion-major-minor=4.20"}) {
			t.Errorf("%s undecided %q, want the policy bound to openshiftVersion-major-minor=4.20", site, got)
		}
		for _, p := range policies[site] {
			if strings.Contains(p, "ocp-420") || strings.Contains(p, "vendor-ocp") || site == "ztp-spoke/sno2" && strings.Contains(p, "site-sno1") {
				t.Errorf("%s gets %s", site, p)
			}
		}
	}

	r := mlRun(t, "", "clusters", "--config", "none", ".")
	for _, want := range []string{
		"    Policy/ztp-site/site-sno1-config-policy: bound to name=sno1 (policygentemplates/site-sno1.yaml:7:3): the site has name=sno1\n",
		"  undecided: 1 (not linted with the site)\n    Policy/ztp-site/ocp-420-config-policy: bound to openshiftVersion-major-minor=4.20 (policygentemplates/ocp-420.yaml:7:3): cannot be evaluated offline: openshiftVersion-major-minor=4.20 selects on a label whose value ACM sets at import from the cluster; only the hub knows whether the site gets it\n",
		"policygentemplates/Policy/ztp-site/ocp-420-config-policy\n  source:   policy: the objects Policy/ztp-site/ocp-420-config-policy delivers, from policygentemplates; bound to the managed clusters labelled openshiftVersion-major-minor=4.20; whether sno1, sno2 get it depends on labels only the hub knows (ACM sets them at import), so the policy is linted on its own\n",
		"policygentemplates/Policy/ztp-site/vendor-ocp-config-policy\n  source:   policy: the objects Policy/ztp-site/vendor-ocp-config-policy delivers, from policygentemplates; bound to the managed clusters labelled vendor=OpenShift; no site of the tree has those labels, so the policy is linted on its own\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("clusters lacks %q:\n%s", want, r.stdout)
		}
	}
	// The site's render holds the policy bound to its name, not the one
	// the hub decides.
	r = mlRun(t, "", "render", "--config", "none", "--cluster", "ztp-spoke/sno1", ".")
	if r.code != exitOK || !strings.Contains(r.stdout, "mirror-c.example.com/sno1") || strings.Contains(r.stdout, "mirror-v.example.com") {
		t.Errorf("render sno1: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
