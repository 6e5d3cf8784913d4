package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var mirrorFormat = &check.Rule{
	ID:       "mirror-format",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "An ImageDigestMirrorSet/ImageTagMirrorSet mirror does not match the CRD pattern.",
	Doc:      doc("mirror-format"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		eachSchemaError(c.Context, func(o *manifest.Object, e schema.Error) {
			if e.Type != schema.Pattern || len(e.Path) < 2 || lastField(e.Path) != "mirrors" {
				return
			}
			if _, isIndex := e.Path[len(e.Path)-1].(int); !isIndex {
				return
			}
			v, _ := e.Value.(string)
			if lowercaseFixes(v, scopes.ValidMirror) {
				return
			}
			c.Report(o, e.Path, "%s", patternMessage(e.Error(), formatHint(v, false), "mirror-format"))
		})
	},
}
