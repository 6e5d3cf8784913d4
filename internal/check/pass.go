package check

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Pass is one rule's run on one cluster: the cluster's Context, shared by
// every rule and read-only, and the rule's own findings. Each rule gets its
// own Pass, so rules never share a findings slice and may run at the same
// time on one Context.
type Pass struct {
	*Context

	rule     *Rule
	severity Severity
	// findings are allocated one by one, so the *Finding a Report
	// returns stays the finding recorded however many follow it.
	findings []*Finding
}

func newPass(c *Context, r *Rule, sev Severity) *Pass {
	return &Pass{Context: c, rule: r, severity: sev}
}

// Report records a finding for the pass's rule at the value at path in o.
// The result is the recorded finding itself: Also adds the other places
// involved, and the rule may lower its severity (AtMost).
func (p *Pass) Report(o *manifest.Object, path manifest.Path, format string, args ...any) *Finding {
	return p.add(Finding{
		Rule:     p.rule.ID,
		Severity: p.severity,
		Message:  fmt.Sprintf(format, args...),
		Position: o.Locate(path),
		Object:   ObjectRef{Kind: string(o.Kind), Name: o.Name},
		Path:     path.String(),
	})
}

// ReportKey is Report, but positioned on the mapping key at path (for a
// field that should not be there).
func (p *Pass) ReportKey(o *manifest.Object, path manifest.Path, format string, args ...any) *Finding {
	f := p.Report(o, path, format, args...)
	f.Position = o.LocateKey(path)
	return f
}

// ReportAt records a finding at a bare position (a file that did not load).
func (p *Pass) ReportAt(pos manifest.Position, format string, args ...any) *Finding {
	return p.add(Finding{
		Rule:     p.rule.ID,
		Severity: p.severity,
		Message:  fmt.Sprintf(format, args...),
		Position: pos,
	})
}

func (p *Pass) add(f Finding) *Finding {
	fp := &f
	p.findings = append(p.findings, fp)
	return fp
}

// Findings returns what the pass reported, in report order.
func (p *Pass) Findings() []Finding {
	out := make([]Finding, len(p.findings))
	for i, f := range p.findings {
		out[i] = *f
	}
	return out
}

// Also adds another involved place to a cross-object finding.
func (f *Finding) Also(o *manifest.Object, path manifest.Path) *Finding {
	f.Related = append(f.Related, Location{
		Position: o.Locate(path),
		Object:   ObjectRef{Kind: string(o.Kind), Name: o.Name},
		Path:     path.String(),
	})
	return f
}

// AtMost lowers the finding to at most s: some rules cover a case that is
// worth less than the rule's default (a repeat the API server accepts, a
// value MCO skips for now). A severity set lower in the configuration
// stays as it is.
func (f *Finding) AtMost(s Severity) *Finding {
	if f.Severity > s {
		f.Severity = s
	}
	return f
}
