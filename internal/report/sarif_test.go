package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// sampleReport has findings in three files, one suppressed finding, a
// cross-object finding and a cluster name: everything SARIF has to carry.
func sampleReport() *Report {
	return &Report{
		Rules: []*check.Rule{
			{ID: "icsp-deprecated", Severity: check.Warning, Origin: check.OriginPolicy,
				Summary: "ImageContentSourcePolicy is deprecated.", Doc: "ICSP is deprecated since 4.13.\n\nMigrate with `mirrorlint migrate`."},
			{ID: "mirror-duplicate", Severity: check.Error, Origin: check.OriginMCO,
				Summary: "Two objects mirror the same source.", Doc: "MCO refuses duplicates."},
			{ID: "mirror-insecure", Severity: check.Info, Origin: check.OriginSurprise, Summary: "A mirror is insecure."},
		},
		Findings: []check.Finding{
			{Rule: "icsp-deprecated", Severity: check.Warning, Message: "ImageContentSourcePolicy/a: use ImageDigestMirrorSet",
				Position: manifest.Position{File: "./clusters/prod/icsp.yaml", Line: 1, Column: 1},
				Object:   check.ObjectRef{Kind: "ImageContentSourcePolicy", Name: "a"}},
			{Rule: "mirror-duplicate", Severity: check.Error, Message: "source quay.io/x: also mirrored by IDMS/b",
				Position: manifest.Position{File: "clusters/prod/idms.yaml", Line: 7, Column: 13, EndLine: 7, EndColumn: 23},
				Object:   check.ObjectRef{Kind: "ImageDigestMirrorSet", Name: "a"}, Path: "spec.imageDigestMirrors[0].source",
				Related: []check.Location{{Position: manifest.Position{File: "clusters/base/idms.yaml", Line: 5, Column: 9},
					Object: check.ObjectRef{Kind: "ImageDigestMirrorSet", Name: "b"}, Path: "spec.imageDigestMirrors[0].source"}},
				Clusters: []string{"prod", "stage"}},
			{Rule: "mirror-insecure", Severity: check.Info, Message: "mirror 100% insecure: on purpose, for \"lab\"",
				Position: manifest.Position{File: "clusters/base/idms.yaml", Line: 9, Column: 11},
				Object:   check.ObjectRef{Kind: "ImageDigestMirrorSet", Name: "b"}, Path: "spec.imageDigestMirrors[0].mirrors[0]",
				Suppressed: &check.Suppression{Kind: "comment", Reason: "lab cluster"}},
			{Rule: "team/require-label", Severity: check.Error, Message: "policy finding without a documented rule",
				Position: manifest.Position{File: "clusters/base/idms.yaml"}},
		},
		Refused: map[string]string{"stage": "duplicate source"},
	}
}

func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "sarif-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://json.schemastore.org/sarif-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func writeSARIF(t *testing.T, r *Report, o Options) ([]byte, map[string]any) {
	t.Helper()
	w, err := New("sarif")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Configure(w, o).Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, buf.String())
	}
	return buf.Bytes(), v
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	sch := compileSARIFSchema(t)
	for name, r := range map[string]*Report{"findings": sampleReport(), "empty": {}} {
		t.Run(name, func(t *testing.T) {
			raw, _ := writeSARIF(t, r, Options{})
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Fatalf("SARIF does not validate: %v\n%s", err, raw)
			}
		})
	}
}

func TestSARIFContent(t *testing.T) {
	raw, v := writeSARIF(t, sampleReport(), Options{})
	if v["version"] != "2.1.0" || v["$schema"] == nil {
		t.Errorf("version/$schema missing: %s", raw)
	}
	run := v["runs"].([]any)[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	rules := driver["rules"].([]any)
	if len(rules) != 4 {
		t.Fatalf("want 3 documented rules + 1 policy rule, got %d", len(rules))
	}
	r0 := rules[0].(map[string]any)
	if r0["id"] != "icsp-deprecated" || r0["help"].(map[string]any)["markdown"] == "" ||
		r0["fullDescription"].(map[string]any)["text"] != "ICSP is deprecated since 4.13." ||
		r0["defaultConfiguration"].(map[string]any)["level"] != "warning" {
		t.Errorf("rule 0 = %v", r0)
	}
	results := run["results"].([]any)
	if len(results) != 4 {
		t.Fatalf("want 4 results, got %d", len(results))
	}
	uris := map[string]bool{}
	for i, res := range results {
		res := res.(map[string]any)
		idx := int(res["ruleIndex"].(float64))
		if rules[idx].(map[string]any)["id"] != res["ruleId"] {
			t.Errorf("result %d: ruleIndex %d does not name %v", i, idx, res["ruleId"])
		}
		loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		uri := loc["artifactLocation"].(map[string]any)["uri"].(string)
		uris[uri] = true
		if strings.HasPrefix(uri, "./") || strings.HasPrefix(uri, "/") {
			t.Errorf("uri %q is not repository-relative", uri)
		}
		if loc["region"].(map[string]any)["startLine"].(float64) < 1 {
			t.Errorf("result %d: startLine < 1", i)
		}
	}
	if len(uris) != 3 {
		t.Errorf("want findings in 3 files, got %v", uris)
	}
	dup := results[1].(map[string]any)
	region := dup["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
	if region["startColumn"].(float64) != 13 || region["endLine"].(float64) != 7 || region["endColumn"].(float64) != 23 {
		t.Errorf("region = %v", region)
	}
	if rel := dup["relatedLocations"].([]any); len(rel) != 1 {
		t.Errorf("relatedLocations = %v", rel)
	}
	if cl := dup["properties"].(map[string]any)["clusters"].([]any); len(cl) != 2 {
		t.Errorf("clusters = %v", cl)
	}
	sup := results[2].(map[string]any)["suppressions"].([]any)[0].(map[string]any)
	if sup["kind"] != "inSource" || sup["justification"] != "lab cluster" {
		t.Errorf("suppression = %v", sup)
	}
	if !bytes.Contains(raw, []byte(`100% insecure: on purpose, for \"lab\"`)) {
		t.Errorf("message not kept verbatim")
	}
}

func TestSARIFEmptyHasResultsArray(t *testing.T) {
	raw, _ := writeSARIF(t, &Report{}, Options{})
	if !bytes.Contains(raw, []byte(`"results": []`)) {
		t.Errorf("an empty run must still carry results: []\n%s", raw)
	}
}

func TestSARIFRelativeToBase(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sub", "idms.yaml")
	r := &Report{Findings: []check.Finding{{Rule: "x", Severity: check.Error, Message: "m",
		Position: manifest.Position{File: file, Line: 2, Column: 3}}}}
	raw, _ := writeSARIF(t, r, Options{Base: dir})
	if !bytes.Contains(raw, []byte(`"uri": "sub/idms.yaml"`)) {
		t.Errorf("uri not relative to base:\n%s", raw)
	}
}

func TestRelPath(t *testing.T) {
	for _, tc := range []struct{ base, file, want string }{
		{"", "./a/b.yaml", "a/b.yaml"},
		{"", "a//b.yaml", "a/b.yaml"},
		{"", "-", "-"},
		{"/repo", "/repo/x/y.yaml", "x/y.yaml"},
		{"/repo", "/elsewhere/y.yaml", "/elsewhere/y.yaml"},
	} {
		if got := RelPath(tc.base, tc.file); got != tc.want {
			t.Errorf("RelPath(%q, %q) = %q, want %q", tc.base, tc.file, got, tc.want)
		}
	}
}

// TestSARIFSchemaRejects guards the validation test itself: a schema that
// accepted anything would make it pass vacuously.
func TestSARIFSchemaRejects(t *testing.T) {
	sch := compileSARIFSchema(t)
	bad := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"level":"fatal"}]}]}`
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err == nil {
		t.Fatal("schema accepted level \"fatal\"")
	}
}
