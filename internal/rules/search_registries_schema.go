package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/rules/schema"
)

var searchRegistriesSchema = &check.Rule{
	ID:       "search-registries-schema",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "containerRuntimeSearchRegistries is empty or repeats a registry.",
	Doc: `` + "`spec.registrySources.containerRuntimeSearchRegistries`" + ` has ` + "`minItems: 1`" + ` and
` + "`x-kubernetes-list-type: set`" + `: the API server refuses ` + "`[]`" + ` (` + "`should have at least 1 items`" + `)
and a repeated registry (` + "`Duplicate value`" + `). To clear the list, remove the field.

The CRD also declares ` + "`format: hostname`" + `, but on the array rather than its items, so the
API server checks nothing about the entries themselves; search-registry-format does.

` + "```yaml" + `
registrySources:
  containerRuntimeSearchRegistries: [registry.access.redhat.com, quay.io]
` + "```",
	Check: func(c *check.Context) {
		eachSchemaError(c, func(o *manifest.Object, e schema.Error) {
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
