package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var icspDeprecated = &check.Rule{
	ID:       "icsp-deprecated",
	Severity: check.Info,
	Origin:   check.OriginSurprise,
	Summary:  "ImageContentSourcePolicy is deprecated since OpenShift 4.13; use ImageDigestMirrorSet.",
	Doc: `ImageContentSourcePolicy still works: MCO merges it into the digest mirror sets, always
as digest-only and ` + "`AllowContactingSource`" + `. But it is deprecated since 4.13, its CRD
carries no deprecation warning (nothing tells you), its values are not validated by the
API server (see icsp-format), and it cannot express NeverContactSource or tag mirrors.

**Fix:** convert it with ` + "`mirrorlint migrate`" + ` or ` + "`oc adm migrate icsp FILE --dest-dir DIR`" + `,
review the ImageDigestMirrorSet, apply it, then delete the ICSP.

` + "```yaml" + `
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
spec:
  imageDigestMirrors:        # was repositoryDigestMirrors
  - source: registry.redhat.io/ubi9
    mirrors: [mirror.example.com/ubi9]
` + "```",
	Check: func(c *check.Context) {
		for _, o := range c.Objects(manifest.KindICSP) {
			c.Report(o, manifest.Path{"kind"},
				"ImageContentSourcePolicy %q is deprecated since OpenShift 4.13: convert it to an ImageDigestMirrorSet with `mirrorlint migrate` (or `oc adm migrate icsp`)", o.Name)
		}
	},
}
