package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var icspDeprecated = &check.Rule{
	ID:       "icsp-deprecated",
	Severity: check.Info,
	Origin:   check.OriginSurprise,
	Summary:  "ImageContentSourcePolicy is deprecated since OpenShift 4.13; use ImageDigestMirrorSet.",
	Doc:      doc("icsp-deprecated"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		if !c.Settings.Version.AtLeast(13) {
			return // before 4.13 ICSP is the only mirror kind there is
		}
		for _, o := range c.Objects(manifest.KindICSP) {
			if o.Created {
				// The installer's own, from the mirrors of a release
				// before 4.14: no file to convert; the install-config
				// that lists imageContentSources is told so itself.
				continue
			}
			c.Report(o, manifest.Path{"kind"},
				"ImageContentSourcePolicy %q is deprecated since OpenShift 4.13: convert it to an ImageDigestMirrorSet with `mirrorlint migrate` (or `oc adm migrate icsp`)", o.Name)
		}
	},
}
