package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var repositoryLowercase = &check.Rule{
	ID:       "repository-lowercase",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "A source or mirror has upper-case letters in its repository path.",
	Doc:      doc("repository-lowercase"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		v := c.Settings.Version
		icspRefused := v.AtLeast(16)
		// Every copy of an object is judged when it is applied; an ICSP
		// copy another replaces never reaches MCO, which is what refuses it.
		for _, e := range writtenEntries(c.Context) {
			icsp := e.kind() == manifest.KindICSP
			if icsp && e.replaced {
				continue
			}
			report := func(p manifest.Path, what, val string) {
				switch {
				case !icsp:
					c.Report(e.obj, p, "repository path of %s %q has upper-case letters; the API server refuses it (only the host may be upper case): write %q", what, val, lowerPath(val))
				case icspRefused:
					c.Report(e.obj, p, "repository path of %s %q has upper-case letters; MCO 4.16+ refuses to render (invalid format for %s %q) and keeps the old registries.conf: write %q", what, val, what, val, lowerPath(val))
				default:
					f := c.Report(e.obj, p, "repository path of %s %q has upper-case letters; image references are lower case, so this never works (MCO 4.16+ refuses it outright): write %q", what, val, lowerPath(val))
					f.AtMost(check.Warning)
				}
			}
			if hasUpperPath(e.source) {
				report(e.sourcePath(), "source", e.source)
			}
			for k, m := range e.mirrors {
				if hasUpperPath(m) {
					report(e.mirrorPath(k), "mirror", m)
				}
			}
		}
	},
}
