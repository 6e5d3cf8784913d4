package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
)

var neverContactSelfMirror = &check.Rule{
	ID:       "never-contact-self-mirror",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "NeverContactSource is set on an entry that lists its own source as a mirror.",
	Doc:      doc("never-contact-self-mirror"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, e := range mirrorEntries(c.Context) {
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
