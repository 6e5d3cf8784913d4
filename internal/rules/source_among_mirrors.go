package rules

import (
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var sourceAmongMirrors = &check.Rule{
	ID:       "source-among-mirrors",
	Severity: check.Info,
	Origin:   check.OriginSurprise,
	Summary:  "The source is listed among its own mirrors and stays an explicit position in the pull order.",
	Doc:      doc("source-among-mirrors"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		s := mirrorSets(c.Context)
		for _, set := range s.all {
			if set.never {
				continue // never-contact-self-mirror reports those
			}
			merged := set.merged()
			if !slices.Contains(merged, set.source) {
				continue
			}
			for _, e := range set.entries {
				for k, m := range e.mirrors {
					if m == e.source {
						c.Report(e.obj, e.mirrorPath(k),
							"the source %q is listed as its own mirror, so nodes try it before the mirrors after it: %s",
							e.source, strings.Join(merged, ", "))
						break
					}
				}
			}
		}
	},
}
