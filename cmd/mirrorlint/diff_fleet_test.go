package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

func idmsNamed(name, source string, mirrors ...string) string {
	s := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: " + name +
		"\nspec:\n  imageDigestMirrors:\n  - source: " + source + "\n    mirrors:\n"
	for _, m := range mirrors {
		s += "    - " + m + "\n"
	}
	return s
}

// regionRepo commits an Argo CD-shaped repository: a base (the release
// mirrors), two overlays with their own mirror sets, and files; it returns
// the top level, with the working directory there.
func regionRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	all := map[string]string{
		"base/kustomization.yaml":           "resources:\n- idms-release.yaml\n",
		"base/idms-release.yaml":            idmsNamed("release", "quay.io/openshift-release-dev/ocp-release", "mirror-a.corp.example/ocp/release", "mirror-b.corp.example/ocp/release"),
		"overlays/west/kustomization.yaml":  "resources:\n- ../../base\n- idms-apps.yaml\n",
		"overlays/west/idms-apps.yaml":      idmsNamed("apps", "registry.example.com/apps", "m1.corp.example/apps", "m2.corp.example/apps"),
		"overlays/dev/kustomization.yaml":   "resources:\n- ../../base\n- idms-apps.yaml\n",
		"overlays/dev/idms-apps.yaml":       idmsNamed("apps", "registry.example.com/apps", "m1.corp.example/apps"),
		"overlays/south/kustomization.yaml": "resources:\n- ../../base\n",
	}
	for k, v := range files {
		all[k] = v
	}
	repo, err := filepath.EvalSymlinks(testtree.Write(t, all))
	if err != nil {
		t.Fatal(err)
	}
	git := gittest.Runner(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	t.Chdir(repo)
	return repo
}

type diffClusters struct {
	Drain      bool     `json:"drain"`
	Action     string   `json:"action"`
	Unreadable []string `json:"unreadable"`
	Refused    []struct {
		Cluster string `json:"cluster"`
	} `json:"refused"`
	Clusters []struct {
		Name    string `json:"name"`
		Action  string `json:"action"`
		Reasons []struct {
			Message string `json:"message"`
			Drain   bool   `json:"drain"`
		} `json:"reasons"`
		Refused  []struct{ Reason string } `json:"refused"`
		Problems []struct {
			Side     string `json:"side"`
			Message  string `json:"message"`
			Rev      string `json:"rev"`
			Position struct {
				File string `json:"file"`
				Line int    `json:"line"`
			} `json:"position"`
		} `json:"problems"`
	} `json:"clusters"`
}

func (d diffClusters) action(name string) string {
	for _, c := range d.Clusters {
		if c.Name == name {
			return c.Action
		}
	}
	return "(absent)"
}

const helmKustomization = "resources:\n- ../../base\n- idms-apps.yaml\nhelmCharts:\n- name: mirror-config\n  repo: https://charts.example.com\n  version: 1.0.0\n"

// One overlay that cannot be built (a helmCharts entry) no longer stops
// the comparison: west, whose change drains, gets its verdict; dev says on
// itself that it was not compared, at the helmCharts line, on both sides;
// the run exits 2 (unreadable input), or 1 with --fail-on-drain.
func TestDiffBaseEachClusterItsOwnVerdict(t *testing.T) {
	repo := regionRepo(t, map[string]string{"overlays/dev/kustomization.yaml": helmKustomization})
	testtree.WriteAt(t, repo, map[string]string{"overlays/west/idms-apps.yaml": idmsNamed("apps", "registry.example.com/apps", "m1.corp.example/apps")})

	r := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--format", "json", "overlays/west", "overlays/dev")
	var out diffClusters
	mustUnmarshal(t, r.stdout, &out)
	if r.code != exitUsage || !out.Drain || out.action("overlays/west") != "drain" || out.action("overlays/dev") != "unreadable" ||
		len(out.Unreadable) != 1 || out.Unreadable[0] != "overlays/dev" {
		t.Fatalf("exit %d: %+v\n%s", r.code, out, r.stderr)
	}
	for _, c := range out.Clusters {
		switch c.Name {
		case "overlays/west":
			if len(c.Reasons) != 1 || !c.Reasons[0].Drain || !strings.Contains(c.Reasons[0].Message, "mirror m2.corp.example/apps removed") {
				t.Errorf("west's reasons: %+v", c.Reasons)
			}
		case "overlays/dev":
			if len(c.Problems) != 2 {
				t.Fatalf("dev's problems: %+v", c.Problems)
			}
			for _, p := range c.Problems {
				if p.Position.File != "overlays/dev/kustomization.yaml" || p.Position.Line != 5 || !strings.Contains(p.Message, "helmCharts") {
					t.Errorf("dev's problem not at its helmCharts entry: %+v", p)
				}
				if (p.Side == "old") != (p.Rev == "HEAD") {
					t.Errorf("old-side problems carry the revision: %+v", p)
				}
			}
		}
	}
	if r := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--fail-on-drain", "overlays/west", "overlays/dev"); r.code != exitFindings {
		t.Errorf("--fail-on-drain with west draining: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	text := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "overlays/west", "overlays/dev")
	for _, want := range []string{
		"== cluster overlays/west\n",
		"DRAIN  /etc/containers/registries.conf: ",
		"== cluster overlays/dev\noverlays/dev/kustomization.yaml:5:3 (at HEAD): error: the old tree does not load: helmCharts entry \"mirror-config\"",
		"overlays/dev/kustomization.yaml:5:3: error: the new tree does not load: helmCharts entry",
		"verdict: not compared: an input does not load (see above)\n",
		"1 not compared (input that does not load: overlays/dev)",
	} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("text output lacks %q:\n%s", want, text.stdout)
		}
	}
	if !strings.Contains(text.stderr, "1 of 2 clusters not compared") {
		t.Errorf("stderr: %s", text.stderr)
	}
}

// Two overlays given side by side pair argument by argument: dev's refusal
// (MCO refuses its mirror set) stays on dev, and west gets its own verdict.
func TestDiffBaseDoesNotPinOneClusterOnAnother(t *testing.T) {
	selfMirror := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: apps\nspec:\n  imageDigestMirrors:\n" +
		"  - source: registry.example.com/apps\n    mirrors:\n    - registry.example.com/apps\n    mirrorSourcePolicy: NeverContactSource\n"
	repo := regionRepo(t, map[string]string{"overlays/dev/idms-apps.yaml": selfMirror})
	testtree.WriteAt(t, repo, map[string]string{"overlays/west/idms-apps.yaml": idmsNamed("apps", "registry.example.com/apps", "m1.corp.example/apps")})
	for _, paths := range [][]string{{"overlays/west", "overlays/dev"}, {"overlays/dev", "overlays/west"}} {
		r := mlRun(t, "", append([]string{"diff", "--config", "none", "--base", "HEAD", "--format", "json"}, paths...)...)
		var out diffClusters
		mustUnmarshal(t, r.stdout, &out)
		if out.action("overlays/west") != "drain" || out.action("overlays/dev") != "refused" {
			t.Errorf("%v: west %s, dev %s; want drain and refused\n%s", paths, out.action("overlays/west"), out.action("overlays/dev"), r.stdout)
		}
		for _, ref := range out.Refused {
			if ref.Cluster != "overlays/dev" {
				t.Errorf("%v: a refusal pinned on %q", paths, ref.Cluster)
			}
		}
	}
}

// A base change that reaches every site alike prints one diff for all of
// them, listing the clusters, instead of one per site.
func TestDiffIdenticalClustersPrintedOnce(t *testing.T) {
	// Sites differ in their own workloads, not in mirrors.
	files := map[string]string{
		"base/kustomization.yaml": "resources:\n- idms-release.yaml\n",
		"base/idms-release.yaml":  idmsNamed("release", "quay.io/openshift-release-dev/ocp-release", "mirror-a.corp.example/ocp/release", "mirror-b.corp.example/ocp/release"),
	}
	for i := 1; i <= 12; i++ {
		site := fmt.Sprintf("sites/site-%04d", i)
		files[site+"/kustomization.yaml"] = "resources:\n- ../../base\n- site-config.yaml\n"
		files[site+"/site-config.yaml"] = fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: site\ndata:\n  id: %q\n", site)
	}
	repo, err := filepath.EvalSymlinks(testtree.Write(t, files))
	if err != nil {
		t.Fatal(err)
	}
	git := gittest.Runner(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "fleet")
	t.Chdir(repo)
	testtree.WriteAt(t, repo, map[string]string{"base/idms-release.yaml": idmsNamed("release", "quay.io/openshift-release-dev/ocp-release", "mirror-a.corp.example/ocp/release")})

	r := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", ".")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stdout, "--- a/etc/containers/registries.conf"); n != 1 {
		t.Errorf("%d diffs printed, want 1 for the 12 identical sites:\n%s", n, r.stdout)
	}
	var sites []string
	for i := 1; i <= 12; i++ {
		sites = append(sites, fmt.Sprintf("sites/site-%04d", i))
	}
	for _, want := range []string{"== 12 clusters with the same result:\n", "sites/site-0001, sites/site-0002,", "sites/site-0012\n",
		"verdict: nodes drain (cordon, evict, then CRI-O reload) in 12 of 12 clusters"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if lines := strings.Count(r.stdout, "\n"); lines > 40 {
		t.Errorf("%d lines for one change shared by 12 sites:\n%s", lines, r.stdout)
	}
	// JSON keeps a verdict per cluster.
	js := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--format", "json", ".")
	var out diffClusters
	mustUnmarshal(t, js.stdout, &out)
	if len(out.Clusters) != 12 || out.action(sites[11]) != "drain" {
		t.Errorf("json clusters: %+v", out.Clusters)
	}
}

// drain-on-change for a removed mirror sits where the pull request shows
// the removal — the entry that lost it, or the kustomization that stopped
// including a deleted file — names the old place as path:line (at REV),
// and never a temporary directory; run from a subdirectory, annotations
// and SARIF name repository paths.
func TestDrainOnRemovalSitsInTheNewTree(t *testing.T) {
	repo := regionRepo(t, map[string]string{
		"common/mirrors/kustomization.yaml": "resources:\n- idms.yaml\n",
		"common/mirrors/idms.yaml":          idmsNamed("common", "registry.example.com/common", "c1.corp.example/common"),
		"overlays/south/kustomization.yaml": "resources:\n- ../../base\n- ../../common/mirrors\n",
	})
	// west loses a mirror of its own entry; south stops including the
	// common mirrors, whose file is deleted.
	testtree.WriteAt(t, repo, map[string]string{
		"overlays/west/idms-apps.yaml":      idmsNamed("apps", "registry.example.com/apps", "m1.corp.example/apps"),
		"overlays/south/kustomization.yaml": "resources:\n- ../../base\n",
	})
	if err := os.RemoveAll(filepath.Join(repo, "common")); err != nil {
		t.Fatal(err)
	}

	wants := []string{
		"overlays/west/idms-apps.yaml:9:5: warning drain-on-change: nodes drain: registry registry.example.com/apps: mirror m2.corp.example/apps removed; it was at overlays/west/idms-apps.yaml:10 (at HEAD) [cluster overlays/west]",
		"overlays/south/kustomization.yaml:1:1: warning drain-on-change: nodes drain: registry registry.example.com/common",
		"; it was at common/mirrors/idms.yaml:7 (at HEAD) [cluster overlays/south]",
	}
	r := mlRun(t, "", "lint", "--config", "none", "--base", "HEAD", ".")
	for _, want := range wants {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("lint --base HEAD lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout+r.stderr, "mirrorlint-base-") {
		t.Errorf("a temporary path is printed:\n%s%s", r.stdout, r.stderr)
	}

	t.Chdir(filepath.Join(repo, "overlays"))
	gh := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--format", "github", ".")
	for _, want := range []string{
		"::warning file=overlays/west/idms-apps.yaml,line=9,",
		"::warning file=overlays/south/kustomization.yaml,line=1,",
		"it was at common/mirrors/idms.yaml:7 (at HEAD)",
	} {
		if !strings.Contains(gh.stdout, want) {
			t.Errorf("diff --format github from overlays/ lacks %q:\n%s%s", want, gh.stdout, gh.stderr)
		}
	}
	if strings.Contains(gh.stdout, "file="+repo) || strings.Contains(gh.stdout, "mirrorlint-base-") {
		t.Errorf("absolute or temporary paths in annotations:\n%s", gh.stdout)
	}
	sarif := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--format", "sarif", ".")
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	mustUnmarshal(t, sarif.stdout, &log)
	uris := map[string]bool{}
	for _, res := range log.Runs[0].Results {
		if len(res.Locations) == 0 {
			t.Errorf("a SARIF result without a location:\n%s", sarif.stdout)
			continue
		}
		uris[res.Locations[0].PhysicalLocation.ArtifactLocation.URI] = true
	}
	if !uris["overlays/west/idms-apps.yaml"] || !uris["overlays/south/kustomization.yaml"] {
		t.Errorf("SARIF locations %v", uris)
	}
}

// Clusters declared in .mirrorlint.yaml are read from the base tree on the
// old side (the config as it was then): diff --base and lint --base compare
// them, instead of failing on the temporary copy.
func TestBaseWithDeclaredClusters(t *testing.T) {
	repo := regionRepo(t, map[string]string{
		".mirrorlint.yaml": "clusters:\n- name: west\n  paths: [overlays/west]\n- name: dev\n  paths: [overlays/dev]\n",
	})
	testtree.WriteAt(t, repo, map[string]string{"overlays/west/idms-apps.yaml": idmsNamed("apps", "registry.example.com/apps", "m1.corp.example/apps")})
	r := mlRun(t, "", "diff", "--base", "HEAD", "--format", "json", ".")
	var out diffClusters
	mustUnmarshal(t, r.stdout, &out)
	if r.code != exitOK || out.action("west") != "drain" || out.action("dev") != "none" {
		t.Errorf("exit %d: %+v\n%s", r.code, out, r.stderr)
	}
	l := mlRun(t, "", "lint", "--base", "HEAD", ".")
	if !strings.Contains(l.stdout, "overlays/west/idms-apps.yaml:9:5: warning drain-on-change: nodes drain: registry registry.example.com/apps: mirror m2.corp.example/apps removed; it was at overlays/west/idms-apps.yaml:10 (at HEAD) [cluster west]") {
		t.Errorf("lint --base:\n%s%s", l.stdout, l.stderr)
	}
}

// A commit check selects the clusters that read the given files: a new
// overlay, alone in the selection, is compared with nothing (it is new),
// not with the base tree's single cluster.
func TestBaseNewClusterAloneInSelection(t *testing.T) {
	repo := regionRepo(t, nil)
	git := gittest.Runner(t, repo)
	git("rm", "-q", "-r", "overlays/west", "overlays/dev")
	git("commit", "-q", "-m", "south only")
	testtree.WriteAt(t, repo, map[string]string{
		"overlays/edge/kustomization.yaml": "resources:\n- idms-apps.yaml\n",
		"overlays/edge/idms-apps.yaml":     idmsNamed("apps", "registry.example.com/apps", "m1.corp.example/apps"),
	})
	git("add", ".")
	r := mlRun(t, "", "lint", "--config", "none", "--base", "HEAD", "overlays/edge/kustomization.yaml", "overlays/edge/idms-apps.yaml")
	if r.code != exitOK || strings.Contains(r.stdout, "drain-on-change") {
		t.Errorf("the new overlay was compared with another cluster: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
