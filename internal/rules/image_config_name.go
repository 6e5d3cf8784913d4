package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var imageConfigName = &check.Rule{
	ID:       "image-config-name",
	Severity: check.Error,
	Origin:   check.OriginSurprise,
	Summary:  "An Image config object is not named \"cluster\".",
	Doc:      doc("image-config-name"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, o := range c.Objects(manifest.KindImage) {
			if o.Name != "cluster" {
				c.Report(o, manifest.Path{"metadata", "name"},
					"Image %q is ignored: MCO and every other consumer read only the Image named \"cluster\", so these registry settings never reach the nodes", o.Name)
			}
		}
	},
}
