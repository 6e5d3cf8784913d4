// Package ruledoc writes the documentation of the rules: the page
// docs/rules.md (an index, then one section per rule), the one-line
// listing of `mirrorlint rules` and its JSON form. Both come from the rules themselves, so the
// documentation cannot drift from what runs.
package ruledoc

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

//go:embed intro.md
var intro string

// Markdown writes the rules page: the introduction, an index table linking
// to each rule, and a section per rule with its documentation.
func Markdown(w io.Writer, rules []*check.Rule) error {
	var b strings.Builder
	b.WriteString(intro)
	b.WriteString("\n| rule | severity | origin | summary |\n|---|---|---|---|\n")
	for _, r := range rules {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", r.ID, anchor(r.ID), r.Severity, r.Origin, escapeCell(r.Summary))
	}
	for _, r := range rules {
		fmt.Fprintf(&b, "\n## %s\n\n", r.ID)
		fmt.Fprintf(&b, "*%s · origin: %s* — %s\n\n", r.Severity, r.Origin, r.Summary)
		b.WriteString(demote(strings.TrimSpace(r.Doc)))
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Text writes one line per rule: id, severity, origin, summary.
func Text(w io.Writer, rules []*check.Rule) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSEVERITY\tORIGIN\tSUMMARY")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Origin, r.Summary)
	}
	return tw.Flush()
}

// JSON writes every rule as `mirrorlint rules --format json` prints it: a
// list of {id, severity, origin, summary, doc}.
func JSON(w io.Writer, rules []*check.Rule) error {
	type rule struct {
		ID       string         `json:"id"`
		Severity check.Severity `json:"severity"`
		Origin   check.Origin   `json:"origin"`
		Summary  string         `json:"summary"`
		Doc      string         `json:"doc"`
	}
	out := make([]rule, 0, len(rules))
	for _, r := range rules {
		out = append(out, rule{r.ID, r.Severity, r.Origin, r.Summary, strings.TrimSpace(r.Doc)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// One prints one rule's documentation for a terminal.
func One(w io.Writer, r *check.Rule) error {
	_, err := fmt.Fprintf(w, "%s (%s, %s)\n\n%s\n\n%s\n", r.ID, r.Severity, r.Origin, r.Summary, strings.TrimSpace(r.Doc))
	return err
}

// anchor is the fragment GitHub gives a "## id" heading: rule ids are
// lower-case words joined by "-" (a policy id may add "." and "/", which
// GitHub drops).
func anchor(id string) string {
	return strings.NewReplacer(".", "", "/", "").Replace(id)
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// demote moves a rule doc's own headings below the rule's "##" section.
func demote(doc string) string {
	lines := strings.Split(doc, "\n")
	inCode := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if !inCode && strings.HasPrefix(l, "#") {
			lines[i] = "##" + l
		}
	}
	return strings.Join(lines, "\n")
}
