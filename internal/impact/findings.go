package impact

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// RefusedRuleID is the rule of the findings diff reports when MCO would
// refuse to render one side.
const RefusedRuleID = "render-refused"

// RefusedRule documents the refusal findings of `diff --format
// sarif|github|junit`; it is registered with the built-in rules.
var RefusedRule = check.RefusedRule

// Findings turns the comparison of two trees into report findings, for the
// formats made for CI (SARIF, GitHub annotations, JUnit): one
// drain-on-change warning per draining change, positioned in the new tree
// as DrainFindings does, and one render-refused error per side MCO would
// refuse. An old-side refusal names its place (a REV:path for --base) in
// the message rather than as the position: that file is not in the
// checkout a CI viewer annotates. It reuses the renders and verdicts
// Compare made.
func (res *Result) Findings() []check.Finding {
	var out []check.Finding
	for _, pair := range res.pairs {
		var fs []check.Finding
		for _, side := range []struct {
			name string
			r    *project.Rendered
		}{{"old", pair.old}, {"new", pair.new}} {
			r := side.r
			if r.Refusal == nil {
				continue
			}
			pos := r.Where(r.Refusal.Subject)
			f := check.Finding{Rule: RefusedRuleID, Severity: check.Error}
			if side.name == "new" {
				f.Message = "MCO would refuse to render the new tree, so the change would not reach the nodes: " + r.Refusal.Error()
				f.Position = pos
			} else {
				f.Message = "MCO would refuse to render the old tree, so no drain verdict can be given: " + r.Refusal.Error()
				if pos.File != "" {
					if res.oldName != nil {
						pos.File = res.oldName(pos.File)
					}
					f.Message += fmt.Sprintf(" (at %s)", pos)
				}
			}
			fs = append(fs, f)
		}
		if len(fs) == 0 {
			fs = DrainFindings(pair.old, pair.new, pair.verdict)
		}
		for i := range fs {
			if pair.label != "" {
				fs[i].Clusters = []string{pair.label}
			}
		}
		out = append(out, fs...)
	}
	check.Sort(out)
	return out
}
