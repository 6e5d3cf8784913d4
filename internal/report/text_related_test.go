package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// The text format lists every related place of a finding up to a few, then
// counts the rest: a duplicate written in three files shows all three.
func TestTextListsRelatedPlaces(t *testing.T) {
	related := func(n int) []check.Location {
		var out []check.Location
		for i := 1; i <= n; i++ {
			out = append(out, check.Location{Position: manifest.Position{File: fmt.Sprintf("dup%d/idms.yaml", i), Line: i, Column: 1}})
		}
		return out
	}
	text := func(n int) string {
		r := &Report{Findings: []check.Finding{{Rule: "duplicate-object", Severity: check.Error, Message: "written more than once",
			Position: manifest.Position{File: "idms.yaml", Line: 1, Column: 1}, Related: related(n)}}}
		w, _ := New("text")
		var buf bytes.Buffer
		if err := w.Write(&buf, r); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	out := text(3)
	for i := 1; i <= 3; i++ {
		if !strings.Contains(out, fmt.Sprintf("    also dup%d/idms.yaml:%d:1\n", i, i)) {
			t.Errorf("place %d missing:\n%s", i, out)
		}
	}
	if out := text(6); !strings.Contains(out, "dup6/idms.yaml:6:1") || strings.Contains(out, "more places") {
		t.Errorf("six places are all listed:\n%s", out)
	}
	out = text(40)
	if !strings.Contains(out, "dup5/idms.yaml:5:1") || strings.Contains(out, "dup6/") || !strings.Contains(out, "    and 35 more places (--format json lists them)\n") {
		t.Errorf("forty places: five and a count:\n%s", out)
	}
}
