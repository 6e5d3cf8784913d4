package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var apiVersionKind = &check.Rule{
	ID:       "api-version-kind",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "A mirror kind is written under an apiVersion the cluster does not serve it in.",
	Doc: `The API server serves each kind under exactly one group and version:

| kind | apiVersion |
|---|---|
| ImageContentSourcePolicy | ` + "`operator.openshift.io/v1alpha1`" + ` |
| ImageDigestMirrorSet, ImageTagMirrorSet, Image | ` + "`config.openshift.io/v1`" + ` |

Any other pair is refused with ` + "`no matches for kind \"ImageDigestMirrorSet\" in version \"…\"`" + `,
and if the object is only read by another tool (a CI check, a Conforma policy) the
cluster never sees the mirrors at all. The Konflux sample repositories spread
` + "`operator.openshift.io/v1alpha1`" + ` on ImageDigestMirrorSet, which is the ICSP group.
Note that ` + "`image.openshift.io/v1 Image`" + ` is an unrelated API and is not reported.

**Fix:** use the apiVersion from the table.

` + "```yaml" + `
apiVersion: config.openshift.io/v1   # not operator.openshift.io/v1alpha1
kind: ImageDigestMirrorSet
` + "```",
	Check: func(c *check.Context) {
		for _, o := range c.All() {
			want := o.Kind.APIVersion()
			if o.Known || want == "" || o.APIVersion == want {
				continue
			}
			c.Report(o, manifest.Path{"apiVersion"},
				"no matches for kind %q in version %q: %s is served as %s", o.Kind, o.APIVersion, o.Kind, want)
		}
	},
}
