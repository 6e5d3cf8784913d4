package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var wildcardSourceNested = &check.Rule{
	ID:       "wildcard-source-nested",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "A wildcard source with mirrors encloses an Image insecure/blocked scope that has no mirrors.",
	Doc:      doc("wildcard-source-nested"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		il := effectiveImageLists(c.Context)
		if il == nil || il.discarded && len(il.insecure.values) == 0 {
			return
		}
		img := il.img
		s := collectSets(mirrorEntries(c.Context))
		if len(s.all) == 0 {
			return
		}
		first := make(map[string]int, len(s.all)) // source -> processing index
		for i, set := range s.all {
			if _, ok := first[set.source]; !ok {
				first[set.source] = i
			}
		}
		var blocked scopeList
		var blockedAt []int
		if !il.discarded {
			blocked, blockedAt = scopeList{"blockedRegistries", il.blockedValues()}, il.blocked
		}
		type nested struct {
			scope string
			at    place
		}
		failing := map[int][]nested{}
		var order []int
		seen := map[string]bool{}
		for _, l := range []scopeList{blocked, il.insecure} {
			for i, scope := range l.values {
				at := l.path(i)
				if l.field == "blockedRegistries" {
					at = il.written.path(blockedAt[i])
				}
				if _, isSource := first[scope]; isSource || seen[scope] {
					continue // an entry with mirrors of its own, or already seen
				}
				seen[scope] = true
				best := -1
				for _, cand := range enclosing(scope, true) {
					if k, ok := first[cand]; ok && (best < 0 || k < best) {
						best = k
					}
				}
				if best < 0 || !scopes.IsWildcard(s.all[best].source) {
					continue
				}
				if _, ok := failing[best]; !ok {
					order = append(order, best)
				}
				failing[best] = append(failing[best], nested{scope, place{img, at}})
			}
		}
		for _, k := range order {
			set := s.all[k]
			at := set.entries[0]
			var scopes []string
			for _, n := range failing[k] {
				scopes = append(scopes, n.scope)
			}
			f := c.Report(at.obj, at.sourcePath(),
				"internal error: mirrorsAdjustedForNestedScope for a wildcard scope %q: MCO cannot copy this wildcard source's mirrors to the nested Image scope(s) %s, refuses to render and keeps the old registries.conf",
				set.source, quoteList(scopes, 3))
			for _, n := range failing[k] {
				f.Also(n.at.obj, n.at.path)
			}
		}
	},
}
