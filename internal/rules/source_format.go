package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var sourceFormat = &check.Rule{
	ID:       "source-format",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "An ImageDigestMirrorSet/ImageTagMirrorSet source does not match the CRD pattern.",
	Doc:      doc("source-format"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		eachSchemaError(c.Context, func(o *manifest.Object, e schema.Error) {
			if e.Type != schema.Pattern || lastField(e.Path) != "source" {
				return
			}
			v, _ := e.Value.(string)
			if lowercaseFixes(v, scopes.ValidSource) {
				return // repository-lowercase says it better
			}
			c.Report(o, e.Path, "%s", patternMessage(e.Error(), formatHint(v, true), "source-format"))
		})
		if c.Settings.Version.AtLeast(16) {
			return
		}
		for _, e := range mirrorEntries(c.Context) {
			if e.kind() != manifest.KindICSP && strings.Contains(e.source, "*") && scopes.ValidSource(e.source) {
				c.Report(e.obj, e.sourcePath(),
					"wildcard entries are not supported with mirror configuration %q: MCO of OpenShift %s refuses wildcard sources (4.16 and later accept them)",
					e.source, c.Settings.Version)
			}
		}
	},
}
