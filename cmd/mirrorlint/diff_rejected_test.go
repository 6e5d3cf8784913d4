package main

import (
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

// A change whose objects the API server refuses reaches no node: diff
// reports each refusal of a changed file with the lint rule's message, at
// its file:line, as a warning in every format, and the text says the
// change cannot apply. A refused object the change does not touch (west's,
// committed as it is) is not reported.
func TestDiffReportsWhatTheAPIServerRefuses(t *testing.T) {
	repo, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	wrongGroup := strings.Replace(idmsNamed("tools", "quay.io/acme/tools", "registry.example.com/acme/tools"), "config.openshift.io/v1", "operator.openshift.io/v1", 1)
	testtree.WriteAt(t, repo, map[string]string{
		"clusters/east/idms.yaml": idmsNamed("apps", "quay.io/acme/app", "registry.east.example/acme/app"),
		"clusters/west/idms.yaml": wrongGroup,
	})
	git := gittest.Runner(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "clusters")
	t.Chdir(repo)
	testtree.WriteAt(t, repo, map[string]string{
		"clusters/east/tools.yaml": wrongGroup,
		"clusters/east/idms.yaml":  idmsNamed("apps", "quay.io/acme/app", "registry.east.example/acme/app") + "    mirrorSourcePolicy: Never\n",
	})
	const (
		apiVersion = `no matches for kind "ImageDigestMirrorSet" in version "operator.openshift.io/v1": ImageDigestMirrorSet is served as config.openshift.io/v1 (did you mean apiVersion: config.openshift.io/v1?)`
		enum       = `spec.imageDigestMirrors[0].mirrorSourcePolicy: Unsupported value: "Never": supported values: "NeverContactSource", "AllowContactingSource" (did you mean "NeverContactSource"?)`
	)
	want := []string{
		"clusters/east/idms.yaml:10:25 source-policy-enum " + enum,
		"clusters/east/tools.yaml:1:13 api-version-kind " + apiVersion,
	}

	text := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", ".")
	for _, line := range []string{
		"== cluster clusters/east\n",
		"clusters/east/idms.yaml:10:25: warning source-policy-enum: " + enum + "\n",
		"clusters/east/tools.yaml:1:13: warning api-version-kind: " + apiVersion + "\n",
		"  the API server refuses 2 changed objects (see above): the change cannot apply as it is\n",
		"verdict: no change to the node files in 2 of 2 clusters; the API server refuses 2 changed objects: the change cannot apply as it is\n",
	} {
		if !strings.Contains(text.stdout, line) {
			t.Errorf("text output lacks %q:\n%s", line, text.stdout)
		}
	}
	if text.code != exitOK || strings.Contains(text.stdout, "clusters/west/idms.yaml") {
		t.Errorf("exit %d; west's unchanged file reported?\n%s%s", text.code, text.stdout, text.stderr)
	}

	r := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--format", "json", ".")
	var out struct {
		Rejected []struct {
			Cluster, Rule, Message string
			Position               struct {
				File         string
				Line, Column int
			}
		}
		Clusters []struct {
			Name     string
			Rejected []struct{ Rule string }
		}
	}
	mustUnmarshal(t, r.stdout, &out)
	var got []string
	for _, rj := range out.Rejected {
		if rj.Cluster != "clusters/east" {
			t.Errorf("rejection on cluster %q: %+v", rj.Cluster, rj)
		}
		got = append(got, fmt.Sprintf("%s:%d:%d %s %s", rj.Position.File, rj.Position.Line, rj.Position.Column, rj.Rule, rj.Message))
	}
	if !slices.Equal(got, want) {
		t.Errorf("json rejected %q, want %q", got, want)
	}
	for _, c := range out.Clusters {
		if n := len(c.Rejected); (c.Name == "clusters/east") != (n == 2) || c.Name != "clusters/east" && n != 0 {
			t.Errorf("cluster %s: %d rejections", c.Name, n)
		}
	}

	r = mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--format", "github", ".")
	annotation := regexp.MustCompile(`(?m)^::warning file=([^,]+),line=(\d+),(?:endLine=\d+,)?col=(\d+),(?:endColumn=\d+,)?title=([a-z-]+) \[cluster clusters/east\]::(.*)$`)
	got = nil
	for _, m := range annotation.FindAllStringSubmatch(r.stdout, -1) {
		got = append(got, fmt.Sprintf("%s:%s:%s %s %s", m[1], m[2], m[3], m[4], m[5]))
	}
	if r.code != exitOK || !slices.Equal(got, want) {
		t.Errorf("github: exit %d, annotations %q, want %q\n%s", r.code, got, want, r.stdout)
	}

	// Two trees given side by side: the same, for the files that differ.
	old := filepath.Join(t.TempDir(), "old")
	testtree.WriteAt(t, old, map[string]string{"idms.yaml": idmsNamed("apps", "quay.io/acme/app", "registry.east.example/acme/app"), "west.yaml": wrongGroup})
	testtree.WriteAt(t, repo, map[string]string{"clusters/east/west.yaml": wrongGroup})
	dirs := mlRun(t, "", "diff", "--config", "none", old, "clusters/east")
	if n := strings.Count(dirs.stdout, ": warning "); dirs.code != exitOK || n != 2 || !strings.Contains(dirs.stdout, "clusters/east/tools.yaml:1:13: warning api-version-kind: "+apiVersion+"\n") ||
		!strings.Contains(dirs.stdout, "verdict: no change to the node files\n  the API server refuses 2 changed objects (see above): the change cannot apply as it is\n") {
		t.Errorf("diff OLD NEW: exit %d, %d warnings, want 2 (not the unchanged west.yaml)\n%s%s", dirs.code, n, dirs.stdout, dirs.stderr)
	}
	if err := os.Remove(filepath.Join(repo, "clusters/east/west.yaml")); err != nil {
		t.Fatal(err)
	}

	r = mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "--format", "sarif", ".")
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
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
	got = nil
	for _, res := range log.Runs[0].Results {
		p := res.Locations[0].PhysicalLocation
		if res.Level != "warning" {
			t.Errorf("sarif %s: level %s", res.RuleID, res.Level)
		}
		got = append(got, fmt.Sprintf("%s:%d:%d %s %s", p.ArtifactLocation.URI, p.Region.StartLine, p.Region.StartColumn, res.RuleID, res.Message.Text))
	}
	if !slices.Equal(got, want) {
		t.Errorf("sarif results %q, want %q", got, want)
	}
}
