package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
)

var requiredFields = &check.Rule{
	ID:       "required-fields",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "A field the CRD requires is missing: spec, an entry's source, or metadata.name.",
	Doc:      doc("required-fields"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		eachSchemaError(c.Context, func(o *manifest.Object, e schema.Error) {
			if e.Type == schema.Required {
				c.Report(o, e.Path, "%s", e.Error())
			}
		})
	},
}
