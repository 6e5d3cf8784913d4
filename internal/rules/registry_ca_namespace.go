package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var registryCANamespace = &check.Rule{
	ID:       "registry-ca-namespace",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "The ConfigMap Image/cluster spec.additionalTrustedCA names is in another namespace than openshift-config.",
	Doc:      doc("registry-ca-namespace"),
	Reads:    registryCAReads,
	Check: func(p *check.Pass) {
		img := p.Input.Image
		if img == nil || img.AdditionalTrustedCA.Name == "" || p.Input.RegistryCA() != nil {
			return
		}
		for _, o := range p.Unmodelled() {
			if o.Kind != manifest.KindConfigMap || o.Name != img.AdditionalTrustedCA.Name || o.Namespace() == manifest.NamespaceOpenShiftConfig {
				continue
			}
			p.Report(o, manifest.Path{"metadata", "namespace"},
				"additionalTrustedCA ConfigMaps must be in openshift-config; this one is never read (namespace %q): MCO only logs \"could not find configmap specified in image.config.openshift.io/cluster with the name %s\" and writes no CA, so pulls from the registries it is for fail TLS verification; move it to namespace openshift-config", o.Namespace(), o.Name)
		}
	},
}
