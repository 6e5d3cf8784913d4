package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/rules/schema"
	"github.com/mirrorlint/mirrorlint/internal/suggest"
)

var sourcePolicyEnum = &check.Rule{
	ID:       "source-policy-enum",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "mirrorSourcePolicy is neither NeverContactSource nor AllowContactingSource.",
	Doc: `The field is an enum of exactly two values, spelled with this capitalisation:
` + "`NeverContactSource`" + ` (pull only from the mirrors) and ` + "`AllowContactingSource`" + ` (the
default: fall back to the source). The API server refuses anything else:
` + "`Unsupported value: \"Never\": supported values: \"NeverContactSource\", \"AllowContactingSource\"`" + `.

If such an object reaches MCO by another way (a restore, a CRD without validation),
MCO compares the string as written: it is neither value, so the source stays
contactable, and a second entry for the same source with another spelling makes MCO
refuse to render (see conflicting-source-policy).

**Fix:** use one of the two values; the message suggests the closest.

` + "```yaml" + `
mirrorSourcePolicy: NeverContactSource   # not "Never" or "NeverContactsource"
` + "```",
	Check: func(c *check.Context) {
		eachSchemaError(c, func(o *manifest.Object, e schema.Error) {
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
