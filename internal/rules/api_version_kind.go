package rules

import (
	"fmt"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var apiVersionKind = &check.Rule{
	ID:       "api-version-kind",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "A mirror or signature policy kind is written under an apiVersion the cluster does not serve it in, or its kind or group is misspelt.",
	Doc: `The API server serves each kind under exactly one group and version:

| kind | apiVersion |
|---|---|
| ImageContentSourcePolicy | ` + "`operator.openshift.io/v1alpha1`" + ` |
| ImageDigestMirrorSet, ImageTagMirrorSet, Image | ` + "`config.openshift.io/v1`" + ` |
| ClusterImagePolicy, ImagePolicy | ` + "`config.openshift.io/v1`" + ` from 4.20; ` + "`config.openshift.io/v1alpha1`" + ` on 4.18–4.19 only with TechPreviewNoUpgrade (or DevPreviewNoUpgrade, CustomNoUpgrade) |

Any other pair is refused with ` + "`no matches for kind \"ImageDigestMirrorSet\" in version \"…\"`" + `,
and if the object is only read by another tool (a CI check, a Conforma policy) the
cluster never sees the mirrors at all. The Konflux sample repositories spread
` + "`operator.openshift.io/v1alpha1`" + ` on ImageDigestMirrorSet, which is the ICSP group.
Note that ` + "`image.openshift.io/v1 Image`" + ` is an unrelated API and is not reported.

A kind that differs from a mirror kind only in case (` + "`imageDigestMirrorSet`" + `) or by a typo
or two (` + "`ImageDigestMirorSet`" + `), and an Image whose group misspells
` + "`config.openshift.io`" + `, are refused the same way; mirrorlint names the kind meant.

The signature policy kinds depend on the target release and feature set
(` + "`--openshift-version`" + `, ` + "`--feature-set`" + ` or FeatureGate/cluster ` + "`spec.featureSet`" + `): a 4.19 cluster
with the Default feature set serves no ClusterImagePolicy at all, and a 4.20 cluster no
longer serves v1alpha1. mirrorlint renders only the policy objects the cluster serves.

**Fix:** use the apiVersion from the table.

` + "```yaml" + `
apiVersion: config.openshift.io/v1   # not operator.openshift.io/v1alpha1
kind: ImageDigestMirrorSet
` + "```",
	Check: func(c *check.Context) {
		for _, o := range c.All() {
			if o.Kind == manifest.KindClusterImagePolicy || o.Kind == manifest.KindImagePolicy {
				policyAPIVersion(c, o)
				continue
			}
			if o.Known {
				continue
			}
			want := o.Kind.APIVersion()
			if want == "" || o.Kind == manifest.KindImage && o.APIVersion != want && !strings.HasPrefix(o.APIVersion, "config.openshift.io/") {
				// Not a mirror kind as written: a misspelling of one.
				if k, av, ok := manifest.NearMiss(o.APIVersion, string(o.Kind)); ok {
					at, meant := manifest.Path{"kind"}, fmt.Sprintf("kind %s (apiVersion %s)", k, av)
					if string(k) == string(o.Kind) {
						at, meant = manifest.Path{"apiVersion"}, "apiVersion "+av
					}
					c.Report(o, at, "no matches for kind %q in version %q: did you mean %s? The API server refuses the object, so its settings never reach the cluster", o.Kind, o.APIVersion, meant)
				}
				continue
			}
			if o.APIVersion == want {
				continue
			}
			c.Report(o, manifest.Path{"apiVersion"},
				"no matches for kind %q in version %q: %s is served as %s (did you mean apiVersion: %s?)", o.Kind, o.APIVersion, o.Kind, want, want)
		}
	},
}

// policyAPIVersion reports a ClusterImagePolicy/ImagePolicy whose
// apiVersion the target release and feature set do not serve.
func policyAPIVersion(c *check.Context, o *manifest.Object) {
	v, fs := c.Settings.Version, c.Input.FeatureSet
	if check.PolicyServed(v, fs, o.APIVersion) {
		return
	}
	var served string
	switch {
	case v.AtLeast(20):
		served = fmt.Sprintf("OpenShift %s serves %s as %s", v, o.Kind, o.Kind.APIVersion())
	case v.AtLeast(18) && check.PreviewFeatureSet(fs):
		served = fmt.Sprintf("OpenShift %s serves %s as %s (feature set %s)", v, o.Kind, manifest.APIVersionV1Alpha1, fs)
	case v.AtLeast(18):
		served = fmt.Sprintf("OpenShift %s serves %s only with the TechPreviewNoUpgrade feature set, as %s (this cluster's feature set is %s: set FeatureGate/cluster spec.featureSet, --feature-set or featureSet)", v, o.Kind, manifest.APIVersionV1Alpha1, fs)
	default:
		served = fmt.Sprintf("mirrorlint models %s from OpenShift 4.18 (as %s with TechPreviewNoUpgrade); OpenShift %s is not rendered with it", o.Kind, manifest.APIVersionV1Alpha1, v)
	}
	c.Report(o, manifest.Path{"apiVersion"}, "no matches for kind %q in version %q: %s", o.Kind, o.APIVersion, served)
}
