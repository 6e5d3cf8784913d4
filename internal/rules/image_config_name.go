package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var imageConfigName = &check.Rule{
	ID:       "image-config-name",
	Severity: check.Error,
	Origin:   check.OriginSurprise,
	Summary:  "An Image config object is not named \"cluster\", or Image/cluster is defined twice.",
	Doc: `` + "`config.openshift.io/v1 Image`" + ` is a singleton: the API documents "the canonical, and
only valid name is cluster", and MCO reads only ` + "`Image/cluster`" + `. An Image with any other
name is accepted by the API server and then **ignored**: its insecure, blocked and allowed
registries never reach the nodes, with no error anywhere.

Two ` + "`Image/cluster`" + ` definitions in one tree are one object in the cluster: whichever is
applied last replaces the other, and a GitOps tool will keep flipping between them.
mirrorlint renders with the first one it reads.

**Fix:** name the object ` + "`cluster`" + ` and keep a single definition.

` + "```yaml" + `
apiVersion: config.openshift.io/v1
kind: Image
metadata:
  name: cluster        # not "default" or "image-config"
` + "```",
	Check: func(c *check.Context) {
		var first *manifest.Object
		for _, o := range c.Objects(manifest.KindImage) {
			if o.Name != "cluster" {
				c.Report(o, manifest.Path{"metadata", "name"},
					"Image %q is ignored: MCO and every other consumer read only the Image named \"cluster\", so these registry settings never reach the nodes", o.Name)
				continue
			}
			if first == nil {
				first = o
				continue
			}
			c.Report(o, manifest.Path{"metadata", "name"},
				"Image/cluster is defined more than once: both are the same cluster object, and whichever is applied last replaces the other (mirrorlint renders with the first, in %s)", first.File).
				Also(first, manifest.Path{"metadata", "name"})
		}
	},
}
