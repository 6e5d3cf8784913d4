package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
)

var noRealMirror = &check.Rule{
	ID:       "no-real-mirror",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "An entry has no mirror other than its source: MCO drops it, policy included.",
	Doc: `MCO skips entries whose ` + "`mirrors`" + ` list is empty or only repeats the source. The
entry has no effect at all, and in particular its ` + "`mirrorSourcePolicy: NeverContactSource`" + `
is **silently dropped**: the source stays reachable. Writing an entry with only a policy is
a common attempt to block a registry.

The entry still takes part in MCO's policy-conflict check, so it can make MCO refuse
the whole configuration (see conflicting-source-policy) without doing anything itself.

**Fix:** add a real mirror, or delete the entry. To stop nodes from pulling from a
registry, use ` + "`spec.registrySources.blockedRegistries`" + ` in Image/cluster.

` + "```yaml" + `
# does nothing:
- source: registry.example.com/internal
  mirrorSourcePolicy: NeverContactSource
` + "```",
	Check: func(c *check.Context) {
		for _, e := range mirrorEntries(c) {
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
