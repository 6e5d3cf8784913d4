package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
)

var mirrorInBlockedScope = &check.Rule{
	ID:       "mirror-in-blocked-scope",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A mirror lies inside a blocked scope, so pulls from it always fail.",
	Doc:      doc("mirror-in-blocked-scope"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		es := mirrorEntries(c.Context)
		s := mirrorSets(c.Context)
		var blocked scopeSet
		if _, spec := imageCluster(c.Context); spec != nil {
			blocked = newScopeSet(spec.RegistrySources.BlockedRegistries)
		}
		// Sources with real mirrors, and whether their entry is blocked.
		sources := map[string]bool{}
		for _, set := range s.all {
			sources[set.source] = sources[set.source] || set.never
		}
		for i := range es {
			e := &es[i]
			if !e.realMirror() {
				continue
			}
			for k, m := range e.mirrors {
				if m == e.source {
					continue
				}
				if b, ok := blocked.enclosing(m); ok {
					c.Report(e.obj, e.mirrorPath(k), "mirror %q lies inside the blocked registry scope %q, so nodes never pull from it", m, b)
					continue
				}
				// The most specific source entry decides for the mirror.
				for _, cand := range enclosing(m, false) {
					never, ok := sources[cand]
					if !ok {
						continue
					}
					if never {
						c.Report(e.obj, e.mirrorPath(k), "mirror %q lies inside %q, whose entry is blocked by NeverContactSource, so nodes never pull from it", m, cand)
					}
					break
				}
			}
		}
	},
}
