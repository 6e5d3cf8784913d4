package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mirrororder"
	"github.com/mirrorlint/mirrorlint/internal/schema"
)

var mirrorDuplicate = &check.Rule{
	ID:       "mirror-duplicate",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "The same mirror is listed twice in one entry.",
	Doc:      doc("mirror-duplicate"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		eachSchemaError(c.Context, func(o *manifest.Object, e schema.Error) {
			if e.Type == schema.Duplicate && lastField(e.Path) == "mirrors" {
				c.Report(o, e.Path, "%s (mirrors is a set: list each mirror once)", e.Error())
			}
		})
		for _, e := range mirrorEntries(c.Context) {
			if e.kind() != manifest.KindICSP {
				continue
			}
			seen := make(map[string]bool, len(e.mirrors))
			for k, m := range e.mirrors {
				if !seen[m] {
					seen[m] = true
					continue
				}
				order := mirrororder.Merge(e.source, [][]string{e.mirrors})
				f := c.Report(e.obj, e.mirrorPath(k),
					"mirror %q is listed twice for source %q; ImageContentSourcePolicy accepts the repeat but MCO turns it into an ordering cycle and renders: %s",
					m, e.source, strings.Join(order, ", "))
				f.AtMost(check.Warning)
			}
		}
	},
}
