package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

func fleet(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("sites/site-%04d", i))
	}
	return out
}

func TestClusterLabel(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{""}, ""},
		{[]string{"prod"}, "[cluster prod]"},
		{[]string{"overlays/dev", "overlays/prod"}, "[cluster overlays/dev, overlays/prod]"},
		{fleet(3), "[cluster sites/site-0001, sites/site-0002, sites/site-0003]"},
		{fleet(144), "[144 clusters: sites/site-0001, sites/site-0002, sites/site-0003, …]"},
	} {
		if got := ClusterLabel(c.in); got != c.want {
			t.Errorf("ClusterLabel(%d names) = %q, want %q", len(c.in), got, c.want)
		}
	}
}

// A finding on a base that 144 site overlays share: the formats people
// read give the count and three names on a short line; JSON and SARIF list
// all 144.
func TestFleetFindingClusterListsScale(t *testing.T) {
	names := fleet(144)
	r := &Report{Findings: []check.Finding{{
		Rule: "mirror-order-conflict", Severity: check.Warning, Message: "mirrors of quay.io/acme disagree on the order",
		Position: manifest.Position{File: "base/idms.yaml", Line: 7, Column: 5}, Clusters: names,
	}}}
	const label = "[144 clusters: sites/site-0001, sites/site-0002, sites/site-0003, …]"
	for _, format := range []string{"text", "github", "junit"} {
		w, _ := New(format)
		var buf bytes.Buffer
		if err := w.Write(&buf, r); err != nil {
			t.Fatal(err)
		}
		out, want := buf.String(), label
		if format == "github" {
			want = escapeGitHubProperty(label) // in the annotation's title
		}
		if !strings.Contains(out, want) || strings.Contains(out, "site-0004") {
			t.Errorf("%s: want the count and three names (%s):\n%s", format, want, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if len(line) > 300 {
				t.Errorf("%s: a %d-character line", format, len(line))
			}
		}
	}
	var sum bytes.Buffer
	if err := WriteSummary(&sum, r, Options{}, SummaryLimit); err != nil || !strings.Contains(sum.String(), mdText(label)) || strings.Contains(sum.String(), "site-0004") {
		t.Errorf("summary (%v):\n%s", err, sum.String())
	}

	var js bytes.Buffer
	w, _ := New("json")
	if err := w.Write(&js, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []struct {
			Clusters []string `json:"clusters"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Findings[0].Clusters) != 144 {
		t.Errorf("json keeps %d names (%v), want 144", len(doc.Findings[0].Clusters), err)
	}
	_, v := writeSARIF(t, r, Options{})
	props := v["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)["properties"].(map[string]any)
	if got := len(props["clusters"].([]any)); got != 144 {
		t.Errorf("sarif keeps %d names, want 144", got)
	}
}

// Clusters that render the same registries.conf share one block of the job
// summary.
func TestSummaryGroupsIdenticalRenders(t *testing.T) {
	rendered := map[string][]byte{}
	for _, n := range fleet(5) {
		rendered[n] = []byte("[[registry]]\nlocation = \"quay.io/acme\"\n")
	}
	rendered["hub"] = []byte("[[registry]]\nlocation = \"quay.io/hub\"\n")
	var buf bytes.Buffer
	if err := WriteSummary(&buf, &Report{Rendered: rendered}, Options{}, SummaryLimit); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, "<details>"); n != 2 {
		t.Errorf("%d rendered blocks, want 2:\n%s", n, out)
	}
	if !strings.Contains(out, "(cluster hub)") || !strings.Contains(out, "(cluster sites/site-0001, sites/site-0002, sites/site-0003 and 2 more)") {
		t.Errorf("block headings:\n%s", out)
	}
}
