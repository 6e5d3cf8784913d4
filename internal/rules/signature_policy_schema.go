package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
)

var signaturePolicySchema = &check.Rule{
	ID:       "signature-policy-schema",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "A ClusterImagePolicy or ImagePolicy breaks its CRD schema or one of its validation rules.",
	Doc:      doc("signature-policy-schema"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		v, fs := c.Settings.Version, c.Input.FeatureSet
		pki := check.PKIServed(v, fs)
		for _, o := range c.All() {
			if (o.Kind != manifest.KindClusterImagePolicy && o.Kind != manifest.KindImagePolicy) || o.Content == nil ||
				!check.PolicyServed(v, fs, o.APIVersion) {
				continue
			}
			crd := schema.LookupVersion(string(o.Kind), o.APIVersion, pki)
			for _, e := range schema.ValidateCRD(crd, o.Content) {
				hint := ""
				if !pki && (lastField(e.Path) == "pki" || e.Value == "PKI") {
					hint = "; the PKI root of trust is served from OpenShift 4.21 (4.20 with TechPreviewNoUpgrade, 4.19 with DevPreviewNoUpgrade)"
				}
				if e.Type == schema.TypeMismatch && strings.HasPrefix(e.Path.String(), "spec.scopes[") {
					hint = "; quote the scope so that YAML reads it as a string"
				}
				if e.Type == schema.Unknown {
					c.ReportKey(o, e.Path, "%s%s", e.Error(), hint)
					continue
				}
				c.Report(o, e.Path, "%s%s", e.Error(), hint)
			}
		}
	},
}
