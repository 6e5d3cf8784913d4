package main

import (
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// diff --format sarif|github|junit prints drain-on-change warnings and
// render-refused errors through the report writers; each output must
// parse and carry the finding where the change is.
func TestDiffCIFormats(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"a/idms.yaml":   idmsWith("mirror-a.example.com/acme"),
		"b/idms.yaml":   idmsWith("mirror-b.example.com/acme"),
		"bad/idms.yaml": idmsWith("mirror-a.example.com/acme") + "  - source: quay.io/foo bar\n    mirrors: [m.example.com/x]\n",
	})
	a, b, bad := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "bad")

	type sarifLog struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	sarif := func(t *testing.T, args ...string) (sarifLog, mlResult) {
		t.Helper()
		r := mlRun(t, "", append([]string{"diff", "--config", "none", "--format", "sarif"}, args...)...)
		var log sarifLog
		if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("sarif does not parse (%v), exit %d:\n%s%s", err, r.code, r.stdout, r.stderr)
		}
		return log, r
	}

	log, r := sarif(t, a, b)
	res := log.Runs[0].Results
	if r.code != exitOK || len(res) != 1 || res[0].RuleID != "drain-on-change" || res[0].Level != "warning" ||
		!strings.Contains(res[0].Message.Text, "mirror-a.example.com/acme removed") || len(res[0].Locations) != 1 ||
		!strings.HasSuffix(res[0].Locations[0].PhysicalLocation.ArtifactLocation.URI, "b/idms.yaml") || res[0].Locations[0].PhysicalLocation.Region.StartLine == 0 {
		t.Errorf("sarif drain finding: exit %d %+v", r.code, res)
	}
	if log, r := sarif(t, a, a); r.code != exitOK || len(log.Runs[0].Results) != 0 {
		t.Errorf("no change: exit %d %+v", r.code, log.Runs[0].Results)
	}
	if r := mlRun(t, "", "diff", "--config", "none", "--format", "sarif", "--fail-on-drain", a, b); r.code != exitFindings {
		t.Errorf("--fail-on-drain with sarif: exit %d", r.code)
	}
	// The new side's source has a space: MCO refuses to render it, and
	// the API server refuses the changed file before that (a warning).
	log, r = sarif(t, a, bad)
	res = log.Runs[0].Results
	if r.code != exitFindings || len(res) != 2 || res[0].RuleID != "render-refused" || res[0].Level != "error" ||
		res[1].RuleID != "source-format" || res[1].Level != "warning" || !strings.Contains(res[1].Message.Text, "the API server refuses it") {
		t.Errorf("sarif refusal: exit %d %+v", r.code, res)
	}
	for _, f := range res {
		if len(f.Locations) != 1 || !strings.HasSuffix(f.Locations[0].PhysicalLocation.ArtifactLocation.URI, "bad/idms.yaml") || f.Locations[0].PhysicalLocation.Region.StartLine != 10 {
			t.Errorf("sarif %s: not at bad/idms.yaml:10: %+v", f.RuleID, f.Locations)
		}
	}
	if log, r := sarif(t, bad, a); r.code != exitFindings || len(log.Runs[0].Results) != 1 || !strings.Contains(log.Runs[0].Results[0].Message.Text, "old tree") {
		t.Errorf("sarif old-side refusal: exit %d %+v", r.code, log.Runs[0].Results)
	}

	r = mlRun(t, "", "diff", "--config", "none", "--format", "github", a, b)
	var annotations []string
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, "::") {
			annotations = append(annotations, line)
		}
	}
	if r.code != exitOK || len(annotations) != 1 || !strings.HasPrefix(annotations[0], "::warning file=") ||
		!strings.Contains(annotations[0], "b/idms.yaml,line=") || !strings.Contains(annotations[0], "title=drain-on-change::") {
		t.Errorf("github: exit %d\n%s", r.code, r.stdout)
	}
	if r := mlRun(t, "", "diff", "--config", "none", "--format", "github", a, bad); r.code != exitFindings || !strings.Contains(r.stdout, "::error file=") {
		t.Errorf("github refusal: exit %d\n%s", r.code, r.stdout)
	}

	r = mlRun(t, "", "diff", "--config", "none", "--format", "junit", a, b)
	var suites struct {
		XMLName  xml.Name `xml:"testsuites"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(r.stdout), &suites); err != nil || r.code != exitOK || suites.Failures != 1 {
		t.Fatalf("junit: exit %d, %v\n%s", r.code, err, r.stdout)
	}
	found := false
	for _, s := range suites.Suites {
		for _, c := range s.Cases {
			if c.Name == "drain-on-change" && c.Failure != nil && c.Failure.Type == "warning" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("junit: no failing drain-on-change case\n%s", r.stdout)
	}
}
