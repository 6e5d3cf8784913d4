package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var sourceAmongMirrors = &check.Rule{
	ID:       "source-among-mirrors",
	Severity: check.Info,
	Origin:   check.OriginSurprise,
	Summary:  "The source is listed among its own mirrors and stays an explicit position in the pull order.",
	Doc: `Nodes try the mirrors in order and then the source. Listing the source among the
mirrors pins where it is tried: MCO keeps it as an explicit mirror unless it ends up last
in the merged order, where it is dropped as redundant. So ` + "`[z.io/a, src, b.io/a]`" + `
renders as ` + "`z.io/a, src, b.io/a`" + `, and ` + "`b.io/a`" + ` is only tried after the source.

This is legitimate when intended (prefer the source, fall back to a mirror). It is often a
leftover, and with ` + "`NeverContactSource`" + ` it is refused outright
(never-contact-self-mirror).

**Fix:** remove the source from ` + "`mirrors`" + ` unless you mean to try it before some mirror.`,
	Check: func(c *check.Context) {
		s := collectSets(mirrorEntries(c))
		for _, set := range s.all {
			if set.never {
				continue // never-contact-self-mirror reports those
			}
			merged := set.merged()
			if !contains(merged, set.source) {
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
