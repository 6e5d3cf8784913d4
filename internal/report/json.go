package report

import (
	"encoding/json"
	"io"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/wire"
)

// jsonWriter prints one object: {"findings": [...], "summary": {...}}.
// The field names are a stable contract (docs/output.md); a finding is
// written in its one wire form (package wire), which the lint package
// returns too.
type jsonWriter struct{}

type jsonReport struct {
	Findings []wire.Finding    `json:"findings"`
	Summary  check.Counts      `json:"summary"`
	Refused  map[string]string `json:"refused,omitempty"`
	// Stopped names the clusters whose nodes get nothing from the input
	// because a component before MCO refuses it, and where and why.
	Stopped map[string]string `json:"stopped,omitempty"`
	// Unreadable names the clusters with input that does not load, and
	// the first such input: they are linted, but not rendered.
	Unreadable map[string]string `json:"unreadable,omitempty"`
}

func (jsonWriter) Write(w io.Writer, r *Report) error {
	out := jsonReport{Findings: make([]wire.Finding, 0, len(r.Findings)), Summary: check.Count(r.Findings), Refused: r.Refused, Stopped: r.Stopped, Unreadable: r.Unreadable}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, wire.FromCheck(f, nil))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
