package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var manifestServerFields = &check.Rule{
	ID:       "manifest-server-fields",
	Severity: check.Warning,
	Origin:   check.OriginAPI,
	Summary:  "metadata carries server-set fields (resourceVersion, uid, creationTimestamp).",
	Doc:      doc("manifest-server-fields"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, o := range c.All() {
			md, ok := o.Content["metadata"].(map[string]any)
			if !ok {
				continue
			}
			for _, k := range []string{"resourceVersion", "uid", "creationTimestamp"} {
				v, present := md[k]
				if !present || v == nil {
					continue
				}
				msg := "metadata.%s is set by the API server: remove it from the manifest"
				if k == "resourceVersion" {
					msg = "metadata.%s is set by the API server: creating the object fails (resourceVersion should not be set on objects to be created) and updates conflict once the live object changes; remove it"
				}
				c.ReportKey(o, manifest.Path{"metadata", k}, msg, k)
			}
		}
	},
}
