package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

func writeGitHub(t *testing.T, r *Report) string {
	t.Helper()
	w, err := New("github")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Configure(w, Options{}).Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestGitHubEscaping(t *testing.T) {
	r := &Report{Findings: []check.Finding{{
		Rule: "team/odd,rule", Severity: check.Error,
		Message:  "100% wrong: a, b\nsecond line\r\nthird",
		Position: manifest.Position{File: "./dir,x/a:b.yaml", Line: 3, Column: 5, EndLine: 3, EndColumn: 9},
		Clusters: []string{"prod"},
	}}}
	got := strings.SplitN(writeGitHub(t, r), "\n", 2)[0]
	want := "::error file=dir%2Cx/a%3Ab.yaml,line=3,endLine=3,col=5,endColumn=9,title=team/odd%2Crule [cluster prod]::" +
		"100%25 wrong: a, b%0Asecond line%0D%0Athird"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGitHubEscapeFunctions(t *testing.T) {
	// '%' must be escaped first, or the '%' of "%0A" would be escaped again.
	if got := escapeGitHubData("%\n"); got != "%25%0A" {
		t.Errorf("data: %q", got)
	}
	if got := escapeGitHubProperty("a%:,\r\n"); got != "a%25%3A%2C%0D%0A" {
		t.Errorf("property: %q", got)
	}
}

func TestGitHubOrderAndLimit(t *testing.T) {
	var fs []check.Finding
	for i := 0; i < 12; i++ {
		fs = append(fs, check.Finding{Rule: "w", Severity: check.Warning, Message: fmt.Sprintf("warn %d", i),
			Position: manifest.Position{File: "a.yaml", Line: i + 1, Column: 1}})
	}
	for i := 0; i < 11; i++ {
		fs = append(fs, check.Finding{Rule: "e", Severity: check.Error, Message: fmt.Sprintf("err %d\n::error::injected", i),
			Position: manifest.Position{File: "z.yaml", Line: i + 1, Column: 1}})
	}
	fs = append(fs, check.Finding{Rule: "i", Severity: check.Info, Message: "note", Position: manifest.Position{File: "b.yaml", Line: 1, Column: 1}},
		check.Finding{Rule: "s", Severity: check.Error, Message: "suppressed", Position: manifest.Position{File: "b.yaml", Line: 2, Column: 1},
			Suppressed: &check.Suppression{Kind: "config", Reason: "r"}})
	out := writeGitHub(t, &Report{Findings: fs})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "::error ") {
		t.Errorf("errors must come first, got %q", lines[0])
	}
	count := map[string]int{}
	for _, l := range lines {
		for _, k := range []string{"::error ", "::warning ", "::notice "} {
			if strings.HasPrefix(l, k) {
				count[k]++
			}
		}
		if strings.Contains(l, "suppressed") && strings.HasPrefix(l, "::") {
			t.Errorf("suppressed finding annotated: %q", l)
		}
	}
	if count["::error "] != 10 || count["::warning "] != 10 || count["::notice "] != 1 {
		t.Errorf("annotation counts = %v\n%s", count, out)
	}
	last := lines[len(lines)-1]
	if !strings.Contains(last, "3 more (1 error, 2 warnings)") || !strings.Contains(last, "SARIF") {
		t.Errorf("summary line = %q", last)
	}
	if strings.Count(out, "\n::error::injected") != 0 {
		t.Errorf("a newline in a message started a workflow command:\n%s", out)
	}
}
