package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
)

var neverContactSelfMirror = &check.Rule{
	ID:       "never-contact-self-mirror",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "NeverContactSource is set on an entry that lists its own source as a mirror.",
	Doc: `"Never contact the source" and "the source is one of the mirrors" contradict each
other, and MCO refuses to render:
` + "`cannot set mirrorSourcePolicy: NeverContactSource if the source \"…\" is one of the mirrors`" + `.
As with every MCO refusal, it only logs this and keeps the previous registries.conf,
so later mirror changes silently stop applying. The API server accepts the object.

**Fix:** remove the source from ` + "`mirrors`" + `, or drop the policy if the source must stay
reachable.

` + "```yaml" + `
- source: registry.redhat.io/ubi8
  mirrors: [mirror.example.com/ubi8]      # not [registry.redhat.io/ubi8, mirror.example.com/ubi8]
  mirrorSourcePolicy: NeverContactSource
` + "```",
	Check: func(c *check.Context) {
		for _, e := range mirrorEntries(c) {
			if !e.never() {
				continue
			}
			for k, m := range e.mirrors {
				if m == e.source {
					c.Report(e.obj, e.mirrorPath(k),
						"cannot set mirrorSourcePolicy: NeverContactSource if the source %q is one of the mirrors; MCO refuses to render and keeps the old registries.conf", e.source)
				}
			}
		}
	},
}
