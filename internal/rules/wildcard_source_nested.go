package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
)

var wildcardSourceNested = &check.Rule{
	ID:       "wildcard-source-nested",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "A wildcard source with mirrors encloses an Image insecure/blocked scope that has no mirrors.",
	Doc: `When a registries.conf entry without mirrors (one created for an Image
` + "`insecureRegistries`" + ` or ` + "`blockedRegistries`" + ` scope) lies inside a source that has mirrors,
MCO copies that source's mirrors to it with the path suffix appended, so that the
narrower entry does not lose the mirrors. It cannot do that for a wildcard source
(` + "`*.example.com`" + `): runtime-utils fails with
` + "`internal error: mirrorsAdjustedForNestedScope for a wildcard scope \"*.example.com\"`" + `, MCO logs
it and keeps the previous registries.conf. The API server accepts both objects.

The enclosing source MCO uses is the first one in its processing order (digest sources
sorted, then tag sources sorted), so a more specific non-wildcard source does not help
if the wildcard sorts first (and ` + "`*`" + ` sorts before letters).

**Fix:** replace the wildcard source by explicit registries, or drop the nested scope
from the Image lists, or give the nested scope mirrors of its own with an IDMS entry.

` + "```yaml" + `
# ImageDigestMirrorSet: source "*.example.net"        (wildcard with mirrors)
# Image/cluster: insecureRegistries: [registry.internal.example.net]   ← refused
` + "```",
	Check: func(c *check.Context) {
		il := effectiveImageLists(c)
		if il == nil || il.discarded && len(il.insecure.values) == 0 {
			return
		}
		img := il.img
		s := collectSets(mirrorEntries(c))
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
				if best < 0 || !isWildcard(s.all[best].source) {
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
