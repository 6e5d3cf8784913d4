package impact

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// DiffRules are the rules of the findings a comparison reports in the CI
// formats (Result.Findings), with their documentation for SARIF: the
// drain warnings, MCO's refusal of a side (check.RefusedRule, registered
// with the built-in rules) and an input that does not load, which keeps
// its cluster from being compared (the loader's own check.ProblemRule).
func DiffRules() []*check.Rule {
	return []*check.Rule{DrainRule(nil), check.RefusedRule, check.ProblemRule}
}

// Findings turns the comparison of two trees into report findings, for the
// formats made for CI (SARIF, GitHub annotations, JUnit): one
// drain-on-change warning per draining change, positioned in the new tree
// as drainFindings does; one render-refused error per side MCO would
// refuse, or that is not rendered because a component before MCO refuses
// its input (at the refused value); and for a cluster that could not be compared, one
// unreadable-manifest error per input that does not load; and a warning
// per refusal of the API server on a changed file (Options.Rejected). What lies in the
// old tree (a REV:path for --base) is named in the message rather than
// used as the position: that file is not in the checkout a CI viewer
// annotates. Findings on the new side are moved where Options.Relocate
// says their values are written, as lint --base moves them. Findings that
// several clusters share (a base) are reported once, listing the clusters.
// It reuses the renders and verdicts Compare made.
func (res *Result) Findings() []check.Finding {
	var all [][]check.Finding
	for _, pair := range res.pairs {
		var fs []check.Finding
		for _, pb := range pair.unreadable {
			f := check.Finding{Rule: check.ProblemRule.ID, Severity: check.Error}
			if pb.Side == "new" {
				f.Message = "this cluster is not compared: " + pb.Message
				f.Position = pb.Position
			} else {
				f.Message = "this cluster is not compared: the old tree does not load: " + pb.Message
				if pb.Position.File != "" {
					f.Message += "; in " + res.old.at(pb.Position)
					f.Position = res.old.inNewTree(pb.oldFile)
				}
			}
			fs = append(fs, f)
		}
		for _, side := range []struct {
			name string
			r    *project.Rendered
		}{{"old", pair.old}, {"new", pair.new}} {
			r := side.r
			var pos manifest.Position
			var who, why string
			switch {
			case r == nil:
				continue
			case r.Stopped != nil:
				pos, who, why = r.Stopped.Pos, "the %s tree is not rendered", r.Stopped.Reason
			case r.Refusal != nil:
				pos, who, why = r.Where(r.Refusal.Subject), "MCO would refuse to render the %s tree", r.Refusal.Error()
			default:
				continue
			}
			f := check.Finding{Rule: check.RefusedRule.ID, Severity: check.Error}
			if side.name == "new" {
				f.Message = fmt.Sprintf(who, "new") + ", so the change would not reach the nodes: " + why
				f.Position = pos
			} else {
				f.Message = fmt.Sprintf(who, "old") + ", so no drain verdict can be given: " + res.old.Message(why)
				if pos.File != "" {
					f.Message += "; in " + res.old.position(pos)
					f.Position = res.old.inNewTree(pos.File)
				}
			}
			fs = append(fs, f)
		}
		if len(fs) == 0 && pair.old != nil {
			fs = drainFindings(pair.old, pair.new, pair.verdict, placer{old: res.old, newP: pair.newP})
		}
		if res.relocate != nil && pair.new != nil && len(fs) > 0 {
			fs = res.relocate(pair.new.Cluster, fs)
		}
		fs = append(fs, pair.rejected...)
		for i := range fs {
			if pair.label != "" {
				fs[i].Clusters = []string{pair.label}
			}
		}
		all = append(all, fs)
	}
	return check.Merge(all...)
}
