package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
)

var noRealMirror = &check.Rule{
	ID:       "no-real-mirror",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "An entry has no mirror other than its source: MCO drops it, policy included.",
	Doc:      doc("no-real-mirror"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, e := range mirrorEntries(c.Context) {
			if e.realMirror() {
				continue
			}
			switch {
			case e.never():
				c.Report(e.obj, e.path("mirrorSourcePolicy"),
					"entry for %q has no mirror other than its source, so MCO drops it and this NeverContactSource is silently ignored: the source stays reachable; add a mirror, or block the registry in Image/cluster blockedRegistries", e.source)
			case len(e.mirrors) == 0:
				c.Report(e.obj, e.sourcePath(), "entry for %q has no mirrors; MCO ignores it", e.source)
			default:
				c.Report(e.obj, e.path("mirrors"), "entry for %q lists only its own source as a mirror; MCO ignores it", e.source)
			}
		}
	},
}
