package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/rules/schema"
)

var requiredFields = &check.Rule{
	ID:       "required-fields",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "A field the CRD requires is missing: spec, an entry's source, or metadata.name.",
	Doc: `The CRDs of all four kinds require ` + "`spec`" + `, and every entry of
` + "`imageDigestMirrors`" + `, ` + "`imageTagMirrors`" + ` and ` + "`repositoryDigestMirrors`" + ` requires
` + "`source`" + `. The API server refuses the object with, for example,
` + "`spec.imageDigestMirrors[0].source: Required value`" + `. ` + "`spec: null`" + ` (a placeholder left for
a generator to fill in) counts as missing, because nulls are dropped before validation.
Every object also needs ` + "`metadata.name`" + `.

An entry without a source most often comes from a list item split in two by
indentation, so that ` + "`mirrors`" + ` and ` + "`source`" + ` end up in different items.

**Fix:** add the field.

` + "```yaml" + `
spec:
  imageDigestMirrors:
  - source: registry.redhat.io/ubi9     # required
    mirrors: [mirror.example.com/ubi9]
` + "```",
	Check: func(c *check.Context) {
		eachSchemaError(c, func(o *manifest.Object, e schema.Error) {
			if e.Type == schema.Required {
				c.Report(o, e.Path, "%s", e.Error())
			}
		})
	},
}
