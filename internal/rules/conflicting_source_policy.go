package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
)

var conflictingSourcePolicy = &check.Rule{
	ID:       "conflicting-source-policy",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "One source has different mirrorSourcePolicy values across mirror objects.",
	Doc:      doc("conflicting-source-policy"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		es := mirrorEntries(c.Context)
		bySource := make(map[string][]*entry, len(es))
		var order []string
		for i := range es {
			e := &es[i]
			if _, ok := bySource[e.source]; !ok {
				order = append(order, e.source)
			}
			bySource[e.source] = append(bySource[e.source], e)
		}
		for _, src := range order {
			group := bySource[src]
			first := group[0].effectivePolicy()
			var at *entry
			for _, e := range group[1:] {
				if e.effectivePolicy() != first {
					at = e
					break
				}
			}
			if at == nil {
				continue
			}
			f := c.Report(at.obj, at.policyPath(),
				"conflicting mirrorSourcePolicy is set for the same source %q in imagedigestmirrorsets, imagetagmirrorsets, or imagecontentsourcepolicies: %s; MCO refuses to render and keeps the old registries.conf",
				src, describePolicies(group))
			for _, e := range group {
				if e != at {
					f.Also(e.obj, e.policyPath())
				}
			}
		}
	},
}

// describePolicies summarises who says what, for the message.
func describePolicies(group []*entry) string {
	var parts []string
	seen := map[string]bool{}
	for _, e := range group {
		p := e.policy
		switch {
		case e.kind() == "ImageContentSourcePolicy":
			p = "AllowContactingSource (ICSP)"
		case p == "":
			p = "unset (AllowContactingSource)"
		}
		s := e.obj.Ref() + " " + p
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	return quoteList(parts, 4)
}
