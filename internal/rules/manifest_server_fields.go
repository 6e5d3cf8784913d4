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
	Doc: `Output of ` + "`oc get -o yaml`" + ` and of ` + "`oc adm migrate icsp`" + ` keeps fields the API server sets
itself. A ` + "`resourceVersion`" + ` makes ` + "`oc create`" + ` fail
(` + "`resourceVersion should not be set on objects to be created`" + `) and makes later applies fail
with a conflict once the live object changes; a ` + "`uid`" + ` pins the manifest to one object
that a re-created cluster will not have; ` + "`creationTimestamp`" + ` is ignored. None belongs in
a repository.

**Fix:** delete them (a ` + "`creationTimestamp: null`" + `, as ` + "`--dry-run -o yaml`" + ` writes it, is fine).`,
	Check: func(c *check.Context) {
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
