package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var neverContactBlocksTags = &check.Rule{
	ID:       "never-contact-blocks-tags",
	Severity: check.Info,
	Origin:   check.OriginSurprise,
	Summary:  "NeverContactSource on digest mirrors only (or tag mirrors only) breaks the other kind of pull.",
	Doc:      doc("never-contact-blocks-tags"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		s := mirrorSets(c.Context)
		for _, set := range s.all {
			if !set.never || payloadScope(set.source) {
				continue // release payloads are only ever pulled by digest
			}
			other, kind, missing := s.tag[set.source], "digest", "by-tag"
			if set.tag {
				other, kind, missing = s.digest[set.source], "tag", "by-digest"
			}
			if other != nil {
				continue
			}
			for _, e := range set.entries {
				if e.never() {
					c.Report(e.obj, e.policyPath(),
						"NeverContactSource blocks %q for every pull, but it has only %s mirrors: %s pulls of it fail (registry is blocked) even where the source could be reached; add the other mirror kind or allow contacting the source if anything pulls it %s",
						set.source, kind, missing, strings.Replace(missing, "-", " ", 1))
					break
				}
			}
		}
	},
}
