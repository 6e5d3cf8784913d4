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
	Doc:      doc("api-version-kind"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
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
func policyAPIVersion(c *check.Pass, o *manifest.Object) {
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
