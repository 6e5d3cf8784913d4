package report

import (
	"bytes"
	"encoding/xml"
	"testing"
)

func TestJUnit(t *testing.T) {
	w, err := New("junit")
	if err != nil {
		t.Fatal(err)
	}
	w = Configure(w, Options{Files: []string{"./clean.yaml", "clusters/prod/idms.yaml"}})
	var buf bytes.Buffer
	if err := w.Write(&buf, sampleReport()); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, buf.String())
	}
	suites := map[string]junitSuite{}
	for _, s := range doc.Suites {
		suites[s.Name] = s
	}
	// clean.yaml was linted and found clean: every rule passes there.
	if s := suites["clean.yaml"]; s.Tests != 3 || s.Failures != 0 {
		t.Errorf("clean.yaml suite = %+v", s)
	}
	if s := suites["clusters/prod/idms.yaml"]; s.Tests != 3 || s.Failures != 1 {
		t.Errorf("idms suite = %+v", s)
	}
	base := suites["clusters/base/idms.yaml"]
	var skipped, failed int
	for _, c := range base.Cases {
		if c.Skipped != nil {
			skipped++
		}
		if c.Failure != nil {
			failed++
			if c.Name != "team/require-label" || c.Failure.Type != "error" {
				t.Errorf("unexpected failure %+v", c)
			}
		}
	}
	if skipped != 1 || failed != 1 || base.Tests != 4 {
		t.Errorf("base suite: %d skipped, %d failed, %d tests\n%s", skipped, failed, base.Tests, buf.String())
	}
	if doc.Failures != 3 {
		t.Errorf("total failures = %d", doc.Failures)
	}
}
