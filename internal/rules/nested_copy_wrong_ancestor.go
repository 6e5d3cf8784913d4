package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var nestedCopyWrongAncestor = &check.Rule{
	ID:       "nested-copy-wrong-ancestor",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A mirrorless insecure/blocked scope copies mirrors from the first-sorted enclosing source, not the nearest.",
	Doc:      doc("nested-copy-wrong-ancestor"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		img, spec := imageCluster(c.Context)
		if img == nil {
			return
		}
		s := collectSets(mirrorEntries(c.Context))
		if len(s.all) < 2 {
			return
		}
		first := make(map[string]int, len(s.all))
		for i, set := range s.all {
			if _, ok := first[set.source]; !ok {
				first[set.source] = i
			}
		}
		rs := spec.RegistrySources
		seen := map[string]bool{}
		for _, l := range []scopeList{{"blockedRegistries", rs.BlockedRegistries}, {"insecureRegistries", rs.InsecureRegistries}} {
			for i, scope := range l.values {
				if _, isSource := first[scope]; isSource || seen[scope] {
					continue
				}
				seen[scope] = true
				cands := enclosing(scope, true) // most specific first
				best, nearest := -1, -1
				for _, cand := range cands {
					k, ok := first[cand]
					if !ok {
						continue
					}
					if nearest < 0 {
						nearest = k
					}
					if best < 0 || k < best {
						best = k
					}
				}
				if best < 0 || best == nearest || scopes.IsWildcard(s.all[best].source) {
					continue
				}
				used, near := s.all[best], s.all[nearest]
				suffix := scope[len(used.source):]
				got := used.merged()
				for j := range got {
					got[j] += suffix
				}
				f := c.Report(img, l.path(i),
					"%q has no mirrors of its own, so MCO copies them from the first-sorted enclosing source %q (giving %s), not from the nearest %q",
					scope, used.source, quoteList(got, 3), near.source)
				f.Also(used.entries[0].obj, used.entries[0].sourcePath())
				f.Also(near.entries[0].obj, near.entries[0].sourcePath())
			}
		}
	},
}
