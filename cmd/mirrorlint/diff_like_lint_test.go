package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The dev overlay's patch replaces the release mirror. lint --base and
// every CI format of diff --base put the drain warning on the patch's
// value, with the same message, and name where the old mirror was written
// (the patch at HEAD, not the base file it patched).
func TestDiffDrainFindingSitsWhereLintPutsIt(t *testing.T) {
	dir := editedGitops(t, nil)
	patch := filepath.Join(dir, "overlays/dev/release-dev-mirror.yaml")
	data, err := os.ReadFile(patch)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(patch, []byte(strings.Replace(string(data), "mirror.dev.example/ocp/release", "mirror2.dev.example/ocp/release", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	const (
		at  = "overlays/dev/release-dev-mirror.yaml:10:9"
		msg = "nodes drain: registry quay.io/openshift-release-dev/ocp-release: mirror mirror.dev.example/ocp/release removed; it was at overlays/dev/release-dev-mirror.yaml:10 (at HEAD)"
	)

	r := mlRun(t, "", "lint", "--config", "none", "--base", "HEAD", "--format", "json", ".")
	var lint struct {
		Findings []struct {
			Rule, Message, File string
			Line, Column        int
			Clusters            []string
		}
	}
	mustUnmarshal(t, r.stdout, &lint)
	var lintAt []string
	for _, f := range lint.Findings {
		if f.Rule == "drain-on-change" {
			lintAt = append(lintAt, fmt.Sprintf("%s:%d:%d %s %v", f.File, f.Line, f.Column, f.Message, f.Clusters))
		}
	}
	if want := []string{at + " " + msg + " [overlays/dev]"}; !slices.Equal(lintAt, want) {
		t.Fatalf("lint --base: drain findings %q, want %q\n%s", lintAt, want, r.stderr)
	}

	r = mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--format", "github", ".")
	annotation := regexp.MustCompile(`(?m)^::warning file=([^,]+),line=(\d+),endLine=\d+,col=(\d+),endColumn=\d+,title=drain-on-change \[cluster overlays/dev\]::(.*)$`)
	if m := annotation.FindAllStringSubmatch(r.stdout, -1); r.code != exitOK || len(m) != 1 || m[0][1]+":"+m[0][2]+":"+m[0][3] != at || m[0][4] != msg {
		t.Errorf("diff --format github: exit %d, annotations %q; want one at %s: %s\n%s", r.code, m, at, msg, r.stdout)
	}

	r = mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--format", "sarif", ".")
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
			}
		}
	}
	mustUnmarshal(t, r.stdout, &log)
	var sarifAt []string
	for _, run := range log.Runs {
		for _, res := range run.Results {
			for _, l := range res.Locations {
				p := l.PhysicalLocation
				sarifAt = append(sarifAt, fmt.Sprintf("%s %s:%d:%d %s", res.RuleID, p.ArtifactLocation.URI, p.Region.StartLine, p.Region.StartColumn, res.Message.Text))
			}
		}
	}
	if want := []string{"drain-on-change " + at + " " + msg}; r.code != exitOK || !slices.Equal(sarifAt, want) {
		t.Errorf("diff --format sarif: exit %d, results %q, want %q", r.code, sarifAt, want)
	}

	r = mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--format", "junit", ".")
	var suites struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Text string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(r.stdout), &suites); err != nil {
		t.Fatalf("junit: %v\n%s", err, r.stdout)
	}
	var junitAt []string
	for _, s := range suites.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				junitAt = append(junitAt, s.Name+" "+c.Name+" "+c.Failure.Text)
			}
		}
	}
	if len(junitAt) != 1 || !strings.HasPrefix(junitAt[0], "overlays/dev/release-dev-mirror.yaml drain-on-change "+at+": warning: "+msg) {
		t.Errorf("diff --format junit: failures %q, want one in the patch's suite at %s", junitAt, at)
	}
}

// policyRepo commits a tree whose clusters sit under platform/ and a
// config at the top: east holds a mirror set and an ACM Policy that
// delivers another, west a mirror set.
func policyRepo(t *testing.T) string {
	t.Helper()
	repo, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	policy := strings.Join([]string{
		"apiVersion: policy.open-cluster-management.io/v1",
		"kind: Policy",
		"metadata:",
		"  name: mirrors",
		"  namespace: policies",
		"spec:",
		"  remediationAction: enforce",
		"  policy-templates:",
		"  - objectDefinition:",
		"      apiVersion: policy.open-cluster-management.io/v1",
		"      kind: ConfigurationPolicy",
		"      metadata:",
		"        name: mirrors-idms",
		"      spec:",
		"        remediationAction: enforce",
		"        object-templates:",
		"        - complianceType: musthave",
		"          objectDefinition:",
		"            apiVersion: config.openshift.io/v1",
		"            kind: ImageDigestMirrorSet",
		"            metadata:",
		"              name: tools",
		"            spec:",
		"              imageDigestMirrors:",
		"              - source: quay.io/acme/tools",
		"                mirrors:",
		"                - registry.east.example/acme/tools",
		"",
	}, "\n")
	testtree.WriteAt(t, repo, map[string]string{
		".mirrorlint.yaml":                   "failOn: error\n",
		"platform/clusters/east/idms.yaml":   idmsNamed("apps", "quay.io/acme/app", "registry.east.example/acme/app"),
		"platform/clusters/east/policy.yaml": policy,
		"platform/clusters/west/idms.yaml":   idmsNamed("apps", "quay.io/acme/app", "registry.west.example/acme/app"),
	})
	git := gittest.Runner(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "platform")
	return repo
}

// diff --base names each cluster from the repository's top level whatever
// path is given and wherever it runs, exactly as lint does, and lists each
// cluster once: the ACM Policy's own cluster too.
func TestDiffBaseNamesClustersFromTheRepository(t *testing.T) {
	repo := policyRepo(t)
	testtree.WriteAt(t, repo, map[string]string{
		"platform/clusters/east/idms.yaml": idmsNamed("apps", "quay.io/acme/app", "registry2.east.example/acme/app"),
	})
	const east = "platform/clusters/east"
	want := []string{east, east + "/Policy/policies/mirrors", "platform/clusters/west"}
	const lintWant = "platform/clusters/east/idms.yaml:9:5: warning drain-on-change: nodes drain: registry quay.io/acme/app: mirror registry.east.example/acme/app removed; it was at platform/clusters/east/idms.yaml:9 (at HEAD) [cluster platform/clusters/east]"
	for _, where := range []struct{ dir, path, file string }{
		{repo, "platform", "platform/clusters/east/idms.yaml"},
		{filepath.Join(repo, "platform"), ".", "clusters/east/idms.yaml"},
		{filepath.Join(repo, "platform", "clusters"), ".", "east/idms.yaml"},
	} {
		t.Chdir(where.dir)
		r := mlRun(t, "", "diff", "--base", "HEAD", "--format", "json", where.path)
		var out diffClusters
		mustUnmarshal(t, r.stdout, &out)
		var names []string
		for _, c := range out.Clusters {
			names = append(names, c.Name)
		}
		if r.code != exitOK || !slices.Equal(names, want) || out.action(east) != "drain" || out.action(east+"/Policy/policies/mirrors") != "none" || out.action("platform/clusters/west") != "none" {
			t.Errorf("from %s, diff --base HEAD %s: exit %d, clusters %q (%+v); want %q, only east draining\n%s", where.dir, where.path, r.code, names, out.Clusters, want, r.stderr)
		}
		text := mlRun(t, "", "diff", "--base", "HEAD", where.path)
		if !strings.Contains(text.stdout, "== cluster "+east+"\n") || strings.Count(text.stdout, east+"/Policy/policies/mirrors") != 1 {
			t.Errorf("from %s: text output does not name %s, or the policy cluster not once:\n%s", where.dir, east, text.stdout)
		}
		lint := mlRun(t, "", "lint", "--base", "HEAD", where.path)
		if want := strings.Replace(lintWant, "platform/clusters/east/idms.yaml:9:5", where.file+":9:5", 1); !strings.Contains(lint.stdout, want) {
			t.Errorf("from %s, lint --base HEAD %s: no\n%s\nin\n%s%s", where.dir, where.path, want, lint.stdout, lint.stderr)
		}
	}
}
