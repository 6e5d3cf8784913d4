package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

func githubEnv(k string) string {
	return map[string]string{
		"GITHUB_SERVER_URL": "https://github.com",
		"GITHUB_REPOSITORY": "acme/gitops",
		"GITHUB_SHA":        "0123abcd",
	}[k]
}

func TestSummaryAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(path, []byte("# earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := sampleReport()
	r.Rendered = map[string][]byte{"prod": []byte("[[registry]]\nlocation = \"quay.io/x\"\n")}
	if err := AppendSummary(path, r, Options{Getenv: githubEnv}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	s := string(b)
	for _, want := range []string{
		"# earlier step\n## mirrorlint",
		"| 2 | 1 | 0 | 1 |", // errors, warnings, info, suppressed
		"[clusters/prod/idms.yaml:7:13](https://github.com/acme/gitops/blob/0123abcd/clusters/prod/idms.yaml#L7)",
		"<details><summary>Rendered <code>/etc/containers/registries.conf</code> (cluster prod)</summary>",
		"```toml\n[[registry]]\nlocation = \"quay.io/x\"\n```",
		"MCO would refuse to render (cluster stage): duplicate source",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "100% insecure") {
		t.Errorf("suppressed finding in the table")
	}
	// Errors before warnings.
	if strings.Index(s, "mirror-duplicate") > strings.Index(s, "icsp-deprecated") {
		t.Errorf("errors should come first:\n%s", s)
	}
}

func TestSummaryWithoutGitHubEnvHasPlainLocations(t *testing.T) {
	var b strings.Builder
	if err := WriteSummary(&b, sampleReport(), Options{Getenv: func(string) string { return "" }}, SummaryLimit); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| clusters/prod/idms.yaml:7:13 |") || strings.Contains(b.String(), "](http") {
		t.Errorf("want plain file:line:\n%s", b.String())
	}
}

func TestSummaryEscapesCells(t *testing.T) {
	r := &Report{Findings: []check.Finding{{Rule: "x", Severity: check.Error, Message: "a|b\n<script>",
		Position: manifest.Position{File: "f.yaml", Line: 1, Column: 1}}}}
	var b strings.Builder
	if err := WriteSummary(&b, r, Options{Getenv: func(string) string { return "" }}, SummaryLimit); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `a\|b<br>&lt;script&gt;`) {
		t.Errorf("cell not escaped:\n%s", b.String())
	}
}

func TestSummaryStaysUnderLimit(t *testing.T) {
	var fs []check.Finding
	for i := 0; i < 20000; i++ {
		fs = append(fs, check.Finding{Rule: "r", Severity: check.Warning, Message: strings.Repeat("m", 100),
			Position: manifest.Position{File: fmt.Sprintf("f%d.yaml", i), Line: 1, Column: 1}})
	}
	r := &Report{Findings: fs, Rendered: map[string][]byte{"": []byte(strings.Repeat("x", 2<<20))}}
	path := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(path, []byte(strings.Repeat("y", 100<<10)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AppendSummary(path, r, Options{}); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Size() > SummaryLimit {
		t.Errorf("summary file is %d bytes, over %d", st.Size(), SummaryLimit)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "more findings not shown") || !strings.Contains(string(b), "registries.conf omitted") {
		t.Errorf("truncation not explained")
	}
}

func TestSummaryPath(t *testing.T) {
	env := func(k string) string { return map[string]string{SummaryEnv: "/gh/summary"}[k] }
	if got := SummaryPath("", env); got != "/gh/summary" {
		t.Errorf("env: %q", got)
	}
	if got := SummaryPath("mine.md", env); got != "mine.md" {
		t.Errorf("flag: %q", got)
	}
}
