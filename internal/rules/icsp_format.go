package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var icspFormat = &check.Rule{
	ID:       "icsp-format",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "MCO refuses an ImageContentSourcePolicy source or mirror.",
	Doc:      doc("icsp-format"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		v := c.Settings.Version
		modern := v.AtLeast(16)
		for _, e := range mirrorEntries(c.Context) {
			if e.kind() != manifest.KindICSP {
				continue
			}
			if modern {
				if !scopes.ValidSource(e.source) && !lowercaseFixes(e.source, scopes.ValidSource) {
					c.Report(e.obj, e.sourcePath(), "invalid format for source %q: MCO 4.16+ refuses to render and keeps the old registries.conf (%s)", e.source, formatHint(e.source, true))
				}
				for k, m := range e.mirrors {
					if !scopes.ValidMirror(m) && !lowercaseFixes(m, scopes.ValidMirror) {
						c.Report(e.obj, e.mirrorPath(k), "invalid format for mirror %q: MCO 4.16+ refuses to render and keeps the old registries.conf (%s)", m, formatHint(m, false))
					}
				}
				continue
			}
			legacy := func(p manifest.Path, val, what string) {
				switch {
				case val == "":
					c.Report(e.obj, p, "invalid empty entry for %s configuration: MCO refuses to render and keeps the old registries.conf", what)
				case strings.Contains(val, "*"):
					c.Report(e.obj, p, "wildcard entries are not supported with mirror configuration %q: MCO of OpenShift %s refuses to render", val, v)
				}
			}
			legacy(e.sourcePath(), e.source, "source")
			for k, m := range e.mirrors {
				legacy(e.mirrorPath(k), m, "mirror")
			}
		}
	},
}
