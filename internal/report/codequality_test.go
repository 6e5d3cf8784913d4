package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// codeQualitySchema is the shape GitLab documents for a Code Quality
// report (artifacts:reports:codequality): an array of issues, each with a
// description, a check name, a fingerprint, one of five severities and a
// location with a relative path and the first line.
const codeQualitySchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "array",
  "items": {
    "type": "object",
    "required": ["description", "check_name", "fingerprint", "severity", "location"],
    "properties": {
      "description": {"type": "string", "minLength": 1},
      "check_name": {"type": "string", "minLength": 1},
      "fingerprint": {"type": "string", "minLength": 1},
      "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
      "location": {
        "type": "object",
        "required": ["path", "lines"],
        "properties": {
          "path": {"type": "string", "minLength": 1, "not": {"pattern": "^(/|\\./|\\.\\./|[A-Za-z]:)"}},
          "lines": {
            "type": "object",
            "required": ["begin"],
            "properties": {"begin": {"type": "integer", "minimum": 1}}
          }
        }
      }
    }
  }
}`

func writeCodeQuality(t *testing.T, r *Report, o Options) ([]codeQualityIssue, []byte) {
	t.Helper()
	w, err := New("codequality")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Configure(w, o).Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, buf.String())
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(strings.NewReader(codeQualitySchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("codequality.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("codequality.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("the report does not validate: %v\n%s", err, buf.String())
	}
	var issues []codeQualityIssue
	if err := json.Unmarshal(buf.Bytes(), &issues); err != nil {
		t.Fatal(err)
	}
	return issues, buf.Bytes()
}

func TestCodeQualityReport(t *testing.T) {
	repo := t.TempDir()
	t.Chdir(repo)
	r := sampleReport()
	// Findings reached by absolute path inside the repository are named
	// relative to it.
	r.Findings[1].File = filepath.Join(repo, "clusters", "prod", "idms.yaml")
	issues, _ := writeCodeQuality(t, r, Options{Base: repo})

	// The suppressed finding is left out; the other three are there.
	if len(issues) != 3 {
		t.Fatalf("want 3 issues (the suppressed one left out), got %d: %+v", len(issues), issues)
	}
	byRule := map[string]codeQualityIssue{}
	for _, is := range issues {
		byRule[is.CheckName] = is
	}
	for rule, want := range map[string]struct {
		severity, path string
		line           int
	}{
		"icsp-deprecated":    {"major", "clusters/prod/icsp.yaml", 1},
		"mirror-duplicate":   {"critical", "clusters/prod/idms.yaml", 7},
		"team/require-label": {"critical", "clusters/base/idms.yaml", 1},
	} {
		got, ok := byRule[rule]
		if !ok {
			t.Errorf("no issue for %s", rule)
			continue
		}
		if got.Severity != want.severity || got.Location.Path != want.path || got.Location.Lines.Begin != want.line {
			t.Errorf("%s: got %s %s:%d, want %s %s:%d", rule, got.Severity, got.Location.Path, got.Location.Lines.Begin, want.severity, want.path, want.line)
		}
	}
	if d := byRule["mirror-duplicate"].Description; !strings.Contains(d, "also mirrored by IDMS/b") || !strings.Contains(d, "[cluster prod, stage]") {
		t.Errorf("description lacks the message or the clusters: %q", d)
	}
	if _, ok := byRule["mirror-insecure"]; ok {
		t.Errorf("a suppressed finding is reported")
	}
}

func TestCodeQualitySeverities(t *testing.T) {
	for sev, want := range map[check.Severity]string{check.Error: "critical", check.Warning: "major", check.Info: "info"} {
		r := &Report{Findings: []check.Finding{{Rule: "r", Severity: sev, Message: "m", Position: manifest.Position{File: "a.yaml", Line: 3}}}}
		issues, _ := writeCodeQuality(t, r, Options{})
		if len(issues) != 1 || issues[0].Severity != want {
			t.Errorf("%v: got %+v, want severity %s", sev, issues, want)
		}
	}
}

// Fingerprints: the same for the same finding on another line or in
// another run, different for every finding of one report, even two
// identical ones.
func TestCodeQualityFingerprints(t *testing.T) {
	finding := func(line int, msg string) check.Finding {
		return check.Finding{Rule: "r", Severity: check.Error, Message: msg,
			Position: manifest.Position{File: "a.yaml", Line: line}, Object: check.ObjectRef{Kind: "ImageDigestMirrorSet", Name: "x"}}
	}
	r := &Report{Findings: []check.Finding{finding(3, "one"), finding(5, "two"), finding(9, "two"), {Rule: "r", Severity: check.Info, Message: "no file"}}}
	first, raw := writeCodeQuality(t, r, Options{})
	_, again := writeCodeQuality(t, r, Options{})
	if !bytes.Equal(raw, again) {
		t.Errorf("two runs differ:\n%s\n%s", raw, again)
	}
	seen := map[string]bool{}
	for _, is := range first {
		if seen[is.Fingerprint] {
			t.Errorf("fingerprint %s used twice: %s", is.Fingerprint, raw)
		}
		seen[is.Fingerprint] = true
	}
	if first[3].Location.Path != codeQualityNoFile || first[3].Location.Lines.Begin != 1 {
		t.Errorf("a finding without a file: %+v", first[3].Location)
	}
	moved := &Report{Findings: []check.Finding{finding(30, "one")}}
	m, _ := writeCodeQuality(t, moved, Options{})
	if m[0].Fingerprint != first[0].Fingerprint {
		t.Errorf("moving a finding to another line changed its fingerprint")
	}
	other := &Report{Findings: []check.Finding{finding(3, "three")}}
	o, _ := writeCodeQuality(t, other, Options{})
	if o[0].Fingerprint == first[0].Fingerprint {
		t.Errorf("another message kept the fingerprint")
	}
}

func TestCodeQualityEmpty(t *testing.T) {
	_, raw := writeCodeQuality(t, &Report{}, Options{})
	if strings.TrimSpace(string(raw)) != "[]" {
		t.Errorf("an empty report must be an empty array, got %q", raw)
	}
}
