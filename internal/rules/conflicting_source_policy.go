package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
)

var conflictingSourcePolicy = &check.Rule{
	ID:       "conflicting-source-policy",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "One source has different mirrorSourcePolicy values across mirror objects.",
	Doc: `MCO requires a single effective policy per source string across every
ImageDigestMirrorSet, ImageTagMirrorSet and ImageContentSourcePolicy entry. An unset policy
means ` + "`AllowContactingSource`" + `, and ICSP entries are always ` + "`AllowContactingSource`" + `. Entries
without mirrors count as well: the check runs before MCO drops them. Otherwise MCO
refuses to render with
` + "`conflicting mirrorSourcePolicy is set for the same source \"…\" in imagedigestmirrorsets,\nimagetagmirrorsets, or imagecontentsourcepolicies`" + `, only logs it, and keeps the old
registries.conf: every later mirror change silently stops applying.

The typical trigger is adding ` + "`NeverContactSource`" + ` to an IDMS while an ITMS (or a legacy
ICSP) for the same source leaves the policy unset. The finding is placed where MCO
stops (the first disagreeing entry in MCO's order: IDMS, ICSP, ITMS, each by name) and
lists every other entry for the source.

**Fix:** set the same policy on every entry for the source; for an ICSP entry that means
migrating it to an IDMS first (` + "`mirrorlint migrate`" + `) if the source must never be contacted.

` + "```yaml" + `
# ImageDigestMirrorSet                    # ImageTagMirrorSet
- source: quay.io/acme/app                - source: quay.io/acme/app
  mirrors: [m.example.com/acme/app]         mirrors: [m.example.com/acme/app]
  mirrorSourcePolicy: NeverContactSource    mirrorSourcePolicy: NeverContactSource  # add
` + "```",
	Check: func(c *check.Context) {
		es := mirrorEntries(c)
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
