package report

import (
	"encoding/json"
	"io"

	"github.com/mirrorlint/mirrorlint/internal/lint"
)

// jsonWriter prints one object: {"findings": [...], "summary": {...}}.
// The field names are a stable contract documented in the README.
type jsonWriter struct{}

type jsonReport struct {
	Findings []lint.Finding    `json:"findings"`
	Summary  lint.Counts       `json:"summary"`
	Refused  map[string]string `json:"refused,omitempty"`
}

func (jsonWriter) Write(w io.Writer, r *Report) error {
	out := jsonReport{Findings: r.Findings, Summary: lint.Count(r.Findings), Refused: r.Refused}
	if out.Findings == nil {
		out.Findings = []lint.Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
