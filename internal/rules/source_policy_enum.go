package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
	"github.com/mirrorlint/mirrorlint/internal/suggest"
)

var sourcePolicyEnum = &check.Rule{
	ID:       "source-policy-enum",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "mirrorSourcePolicy is neither NeverContactSource nor AllowContactingSource.",
	Doc:      doc("source-policy-enum"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		eachSchemaError(c.Context, func(o *manifest.Object, e schema.Error) {
			if e.Type != schema.NotSupported {
				return
			}
			hint := ""
			if s, ok := e.Value.(string); ok {
				if m := suggest.Closest(s, e.Supported, 6); m != "" {
					hint = ` (did you mean "` + m + `"?)`
				}
			}
			c.Report(o, e.Path, "%s%s", e.Error(), hint)
		})
	},
}
