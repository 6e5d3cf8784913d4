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
	Doc: `` + "`config.openshift.io/v1 Image`" + ` is a singleton: the API documents "the canonical, and
only valid name is cluster", and MCO reads only ` + "`Image/cluster`" + `. An Image with any other
name is accepted by the API server and then **ignored**: its insecure, blocked and allowed
registries never reach the nodes, with no error anywhere.

Two ` + "`Image/cluster`" + ` definitions in one cluster are one object: the one applied last
replaces the other (` + "`duplicate-object`" + ` reports both, and mirrorlint renders with the last).

**Fix:** name the object ` + "`cluster`" + ` and keep a single definition.

` + "```yaml" + `
apiVersion: config.openshift.io/v1
kind: Image
metadata:
  name: cluster        # not "default" or "image-config"
` + "```",
	Check: func(c *check.Context) {
		for _, o := range c.Objects(manifest.KindImage) {
			if o.Name != "cluster" {
				c.Report(o, manifest.Path{"metadata", "name"},
					"Image %q is ignored: MCO and every other consumer read only the Image named \"cluster\", so these registry settings never reach the nodes", o.Name)
			}
		}
	},
}
