package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const ztpFleetFixture = "testdata/ztp-fleet"

// ztpFleetCopy copies the ZTP fleet fixture (common, group and site
// policies over two SiteConfigs) outside any git repository and makes it
// the working directory; without is a directory of it left out.
func ztpFleetCopy(t *testing.T, without string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(ztpFleetFixture)); err != nil {
		t.Fatal(err)
	}
	if without != "" {
		if err := os.RemoveAll(filepath.Join(dir, without)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
}

type fleetListing struct {
	Clusters []struct {
		Name     string            `json:"name"`
		Reason   string            `json:"reason"`
		Paths    []string          `json:"paths"`
		Kinds    map[string]int    `json:"kinds"`
		Labels   map[string]string `json:"labels"`
		Policies []struct {
			Policy   string   `json:"policy"`
			Selector string   `json:"selector"`
			At       string   `json:"at"`
			Because  []string `json:"because"`
		} `json:"policies"`
		HubLabels []string `json:"hubLabels"`
		Undecided []struct {
			Policy string   `json:"policy"`
			Open   []string `json:"open"`
		} `json:"undecided"`
	} `json:"clusters"`
}

func fleetClusters(t *testing.T, args ...string) fleetListing {
	t.Helper()
	r := mlRun(t, "", append([]string{"clusters", "--config", "none", "--format", "json"}, args...)...)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var l fleetListing
	if err := json.Unmarshal([]byte(r.stdout), &l); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	return l
}

// Each site is one cluster: its install's mirrors and the policies whose
// bindings select its labels; the policies the sites get are no clusters
// of their own, the one no site gets still is.
func TestZTPFleetClusters(t *testing.T) {
	ztpFleetCopy(t, "")
	l := fleetClusters(t, ".")
	var names []string
	for _, c := range l.Clusters {
		names = append(names, c.Name)
	}
	want := []string{"policygentemplates", "policygentemplates/Policy/ztp-group/group-du-3node-config-policy",
		"site-policies", "siteconfig", "policygentemplates/source-crs", "ztp-spoke/sno1", "ztp-spoke/sno2"}
	if !slices.Equal(names, want) {
		t.Fatalf("clusters %q, want %q", names, want)
	}
	alone := l.Clusters[1]
	if !strings.HasSuffix(alone.Reason, "bound to the managed clusters labelled group-du-3node,du-profile!=4.18; no site of the tree has those labels, so the policy is linted on its own") {
		t.Errorf("the unplaced policy's reason: %s", alone.Reason)
	}
	sno1, sno2 := l.Clusters[5], l.Clusters[6]
	type grant struct{ policy, selector, at, because string }
	grants := func(c int) []grant {
		var out []grant
		for _, g := range l.Clusters[c].Policies {
			out = append(out, grant{g.Policy, g.Selector, g.At, strings.Join(g.Because, "; ")})
		}
		return out
	}
	wantSno1 := []grant{
		{"Policy/ztp-common/common-config-policy", "common=true", "policygentemplates/common-ranGen.yaml:7:3", "common=true"},
		{"Policy/ztp-group/group-du-sno-config-policy", "group-du-sno", "policygentemplates/group-du-sno-ranGen.yaml:7:3", `group-du-sno=""`},
	}
	if got := grants(5); !slices.Equal(got, wantSno1) {
		t.Errorf("sno1 policies:\n%q\nwant\n%q", got, wantSno1)
	}
	wantSno2 := []grant{
		{"Policy/ztp-common/common-config-policy", "common=true", "policygentemplates/common-ranGen.yaml:7:3", "common=true"},
		{"Policy/ztp-group/group-du-standard-config-policy", "group-du-standard,du-profile!=4.18", "policygentemplates/group-du-standard.yaml:8:5", `group-du-standard=""; du-profile=4.20 (not 4.18)`},
		{"Policy/ztp-site/sno2-mirrors", "sites=sno2", "site-policies/sno2-policy.yaml:37:3", "sites=sno2"},
	}
	if got := grants(6); !slices.Equal(got, wantSno2) {
		t.Errorf("sno2 policies:\n%q\nwant\n%q", got, wantSno2)
	}
	if sno1.Labels["sites"] != "sno1" || sno1.Kinds["ImageDigestMirrorSet"] != 3 {
		t.Errorf("sno1: labels %v, kinds %v (want the install's IDMS and the two policies')", sno1.Labels, sno1.Kinds)
	}
	if !slices.Equal(sno1.Paths, []string{"siteconfig/sno1.yaml", "policygentemplates/common-ranGen.yaml", "policygentemplates/group-du-sno-ranGen.yaml"}) {
		t.Errorf("sno1 paths %q", sno1.Paths)
	}
	if sno2.Kinds["ImageDigestMirrorSet"] != 3 {
		t.Errorf("sno2 kinds %v", sno2.Kinds)
	}

	r := mlRun(t, "", "clusters", "--config", "none", ".")
	for _, line := range []string{
		"\nztp-spoke/sno1\n  source:   input: ZTP spoke: ",
		"; and the objects of the policies its labels bind it to\n  paths:    siteconfig/sno1.yaml, policygentemplates/common-ranGen.yaml, policygentemplates/group-du-sno-ranGen.yaml\n",
		"  labels:   cluster.open-cluster-management.io/clusterset=default, common=true, group-du-sno=\"\", name=sno1, sites=sno1; set at import from the cluster, values known to the hub only: clusterID, feature.open-cluster-management.io/addon-*, openshiftVersion, openshiftVersion-major, openshiftVersion-major-minor\n  policies: 2\n" +
			"    Policy/ztp-common/common-config-policy: bound to common=true (policygentemplates/common-ranGen.yaml:7:3): the site has common=true\n" +
			"    Policy/ztp-group/group-du-sno-config-policy: bound to group-du-sno (policygentemplates/group-du-sno-ranGen.yaml:7:3): the site has group-du-sno=\"\"\n",
	} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("the listing lacks %q:\n%s", line, r.stdout)
		}
	}
}

// Without sites in the tree, each policy is a cluster of its own, as
// before.
func TestZTPFleetWithoutSites(t *testing.T) {
	ztpFleetCopy(t, "siteconfig")
	l := fleetClusters(t, ".")
	var names []string
	for _, c := range l.Clusters {
		names = append(names, c.Name)
		if c.Policies != nil {
			t.Errorf("%s lists policies without sites", c.Name)
		}
	}
	for _, want := range []string{"policygentemplates/Policy/ztp-common/common-config-policy",
		"policygentemplates/Policy/ztp-group/group-du-sno-config-policy", "site-policies/Policy/ztp-site/sno2-mirrors"} {
		if !slices.Contains(names, want) {
			t.Errorf("no cluster %s among %q", want, names)
		}
	}
	r := mlRun(t, "", "lint", "--config", "none", ".")
	if strings.Contains(r.stdout, "mirror-order-conflict") {
		t.Errorf("policies of different generators compared without a site getting both:\n%s", r.stdout)
	}
}

type siteFinding struct {
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Clusters []string `json:"clusters"`
	Related  []struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	} `json:"related"`
}

func fleetLint(t *testing.T, args ...string) []siteFinding {
	t.Helper()
	r := mlRun(t, "", append([]string{"lint", "--config", "none", "--format", "json"}, args...)...)
	var doc struct {
		Findings []siteFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	return doc.Findings
}

// theFinding is the one finding of rule in fs; the test fails unless there
// is exactly one.
func theFinding(t *testing.T, fs []siteFinding, rule string) siteFinding {
	t.Helper()
	var of []siteFinding
	for _, f := range fs {
		if f.Rule == rule {
			of = append(of, f)
		}
	}
	if len(of) != 1 {
		t.Fatalf("%d %s findings, want 1: %+v", len(of), rule, fs)
	}
	return of[0]
}

// The common and the group policy disagree on the mirror order; the site
// that gets both has the conflict, at the generator entries' lines, and
// the site that gets only the common one has none.
func TestZTPFleetConflict(t *testing.T) {
	ztpFleetCopy(t, "")
	check := func(t *testing.T, fs []siteFinding) {
		t.Helper()
		f := theFinding(t, fs, "mirror-order-conflict")
		if f.File != "policygentemplates/group-du-sno-ranGen.yaml" || f.Line != 18 || f.Column != 11 ||
			!slices.Equal(f.Clusters, []string{"ztp-spoke/sno1"}) ||
			f.Message != `2 entries give digest mirrors for "registry.redhat.io" in contradicting orders (a cycle); MCO breaks it alphabetically and renders: mirror-a.example.com:5000, mirror-b.example.com:5000` {
			t.Errorf("finding %+v", f)
		}
		if len(f.Related) != 1 || f.Related[0].File != "policygentemplates/common-ranGen.yaml" || f.Related[0].Line != 18 || f.Related[0].Column != 11 {
			t.Errorf("related %+v", f.Related)
		}
	}
	t.Run("tree", func(t *testing.T) {
		fs := fleetLint(t, ".")
		check(t, fs)
		for _, f := range fs {
			// The SiteConfigs under generators: are read as sites.
			if f.Rule == "plugin-not-run" {
				t.Errorf("%+v", f)
			}
		}
	})
	t.Run("site", func(t *testing.T) { check(t, fleetLint(t, "--cluster", "ztp-spoke/sno1", ".")) })
	// A commit changing the group policy lints the sites it reaches.
	t.Run("pre-commit", func(t *testing.T) {
		check(t, fleetLint(t, "--context", ".", "policygentemplates/group-du-sno-ranGen.yaml"))
	})
	t.Run("other site", func(t *testing.T) {
		for _, f := range fleetLint(t, "--cluster", "ztp-spoke/sno2", ".") {
			if f.Rule == "mirror-order-conflict" {
				t.Errorf("sno2 gets no group-du-sno policy: %+v", f)
			}
		}
	})
}

// A site's registries.conf holds its install's mirrors and its policies'.
func TestZTPFleetRender(t *testing.T) {
	ztpFleetCopy(t, "")
	out := t.TempDir()
	r := mlRun(t, "", "render", "--config", "none", "--cluster", "ztp-spoke/sno1", "-o", out, ".")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "registries.conf"))
	if err != nil {
		t.Fatal(err)
	}
	conf := string(b)
	for _, want := range []string{
		// the install's imageDigestSources
		"location = \"quay.io/openshift-release-dev/ocp-release\"\n\n  [[registry.mirror]]\n    location = \"mirror-a.example.com:5000/ocp-release\"\n",
		// the common and the group policy, merged as MCO does
		"location = \"registry.redhat.io\"\n\n  [[registry.mirror]]\n    location = \"mirror-a.example.com:5000\"\n    pull-from-mirror = \"digest-only\"\n\n  [[registry.mirror]]\n    location = \"mirror-b.example.com:5000\"\n",
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("registries.conf lacks %q:\n%s", want, conf)
		}
	}
	if strings.Contains(conf, "ocp-v4.0-art-dev") || strings.Contains(conf, "mirror-c.example.com") {
		t.Errorf("sno1 has another site's or an unplaced policy's mirrors:\n%s", conf)
	}
	r = mlRun(t, "", "render", "--config", "none", "--cluster", "ztp-spoke/sno2", ".")
	if r.code != exitOK || !strings.Contains(r.stdout, `location = "mirror-a.example.com:5000/ocp-v4.0-art-dev"`) || strings.Contains(r.stdout, "mirror-c.example.com") {
		t.Errorf("sno2: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// The images a policy makes its sites pull are judged against the mirrors
// the sites get: the common policy delivers the disconnected CatalogSource
// (its image written in the template, the rest from the source CR) with a
// mirror set that never contacts registry.redhat.io, which has only digest
// mirrors, so the catalog's by-tag pull fails on every site that gets the
// policy, and is reported once, at the template's line, naming both sites.
func TestZTPFleetDeliveredImages(t *testing.T) {
	ztpFleetCopy(t, "")
	common := `apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
metadata:
  name: "common"
  namespace: "ztp-common"
spec:
  bindingRules:
    common: "true"
  sourceFiles:
    - fileName: disconnected-registry/DisconnectedIDMS.yaml
      policyName: "config-policy"
      metadata:
        name: common-idms
      spec:
        imageDigestMirrors:
        - source: registry.redhat.io
          mirrors:
          - mirror-a.example.com:5000
          - mirror-b.example.com:5000
        - source: quay.io/acme
          mirrors:
          - mirror-a.example.com:5000/acme
          mirrorSourcePolicy: NeverContactSource
    - fileName: disconnected-registry/DefaultCatsrc.yaml
      policyName: "config-policy"
      metadata:
        name: redhat-operators-disconnected
      spec:
        image: quay.io/acme/operator-index:v4.21
`
	catsrc := `apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: default-cat-source
  namespace: openshift-marketplace
spec:
  displayName: default-cat-source
  image: $imageUrl
  sourceType: grpc
`
	testtree.WriteAt(t, ".", map[string]string{
		"policygentemplates/common-ranGen.yaml":                                  common,
		"policygentemplates/source-crs/disconnected-registry/DefaultCatsrc.yaml": catsrc,
	})
	f := theFinding(t, fleetLint(t, "."), "image-pull-fails")
	if f.File != "policygentemplates/common-ranGen.yaml" || f.Line != 29 || f.Column != 16 ||
		!slices.Equal(f.Clusters, []string{"ztp-spoke/sno1", "ztp-spoke/sno2"}) ||
		!strings.HasPrefix(f.Message, "quay.io/acme/operator-index:v4.21 cannot be pulled on this cluster's nodes: it is a by-tag pull") {
		t.Errorf("finding %+v", f)
	}
	if len(f.Related) != 1 || f.Related[0].File != "policygentemplates/common-ranGen.yaml" || f.Related[0].Line != 23 {
		t.Errorf("related %+v, want the mirrorSourcePolicy that blocks the source", f.Related)
	}
}
