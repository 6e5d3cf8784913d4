package impact

import (
	"fmt"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Rejection is the API server refusing an object the change touches (a
// lint rule of origin api-server, on a file that differs between the
// sides): the change cannot apply as it is, whatever the node files say.
type Rejection struct {
	Cluster string `json:"cluster,omitempty"`
	// Rule is the lint rule that says why (api-version-kind,
	// source-policy-enum...); Message is its message.
	Rule     string            `json:"rule"`
	Message  string            `json:"message"`
	Position manifest.Position `json:"position"`
}

// rejections turns the findings Options.Rejected gave for one cluster into
// warnings labelled for the pair, and their JSON form.
func rejections(fs []check.Finding, label string) ([]check.Finding, []Rejection) {
	var out []check.Finding
	var rs []Rejection
	for _, f := range fs {
		f.Severity, f.Clusters = check.Warning, nil
		out = append(out, f)
		rs = append(rs, Rejection{Cluster: label, Rule: f.Rule, Message: f.Message, Position: f.Position})
	}
	return out, rs
}

// rejectionLines prints a cluster's rejections as lint prints findings.
func (res *Result) rejectionLines(b *strings.Builder, rs []Rejection) {
	for _, r := range rs {
		fmt.Fprintf(b, "%s: warning %s: %s\n", res.where(r.Position, ""), r.Rule, r.Message)
	}
}

// rejectionVerdict says, under a cluster's verdict, that the change does
// not apply as it is.
func rejectionVerdict(b *strings.Builder, rs []Rejection) {
	switch len(rs) {
	case 0:
	case 1:
		b.WriteString("  the API server refuses a changed object (see above): the change cannot apply as it is\n")
	default:
		fmt.Fprintf(b, "  the API server refuses %d changed objects (see above): the change cannot apply as it is\n", len(rs))
	}
}
