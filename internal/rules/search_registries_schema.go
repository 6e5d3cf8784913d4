package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
)

var searchRegistriesSchema = &check.Rule{
	ID:       "search-registries-schema",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "containerRuntimeSearchRegistries is empty or repeats a registry.",
	Doc:      doc("search-registries-schema"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		eachSchemaError(c.Context, func(o *manifest.Object, e schema.Error) {
			if !strings.Contains(e.Path.String(), "containerRuntimeSearchRegistries") {
				return
			}
			switch e.Type {
			case schema.TooFew:
				c.Report(o, e.Path, "%s (remove the field instead of leaving it empty)", e.Error())
			case schema.Duplicate:
				c.Report(o, e.Path, "%s", e.Error())
			}
		})
	},
}
