package report

import (
	"encoding/json"
	"io"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

// jsonWriter prints one object: {"findings": [...], "summary": {...}}.
// The field names are a stable contract documented in the README.
type jsonWriter struct{}

type jsonReport struct {
	Findings []check.Finding   `json:"findings"`
	Summary  check.Counts      `json:"summary"`
	Refused  map[string]string `json:"refused,omitempty"`
	// Unreadable names the clusters with input that does not load, and
	// the first such input: they are linted, but not rendered.
	Unreadable map[string]string `json:"unreadable,omitempty"`
}

func (jsonWriter) Write(w io.Writer, r *Report) error {
	out := jsonReport{Findings: r.Findings, Summary: check.Count(r.Findings), Refused: r.Refused, Unreadable: r.Unreadable}
	if out.Findings == nil {
		out.Findings = []check.Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
