package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/rules/schema"
)

var signaturePolicySchema = &check.Rule{
	ID:       "signature-policy-schema",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "A ClusterImagePolicy or ImagePolicy breaks its CRD schema or one of its validation rules.",
	Doc: `The API server checks ClusterImagePolicy and ImagePolicy objects against their
CustomResourceDefinition (openshift/api) and its CEL validation rules, and refuses the
object with the messages reproduced here:

- every scope must be a fully qualified host (or ` + "`localhost`" + `) with an optional repository
  path in lower case, optionally a tag or a digest, or a ` + "`*.domain`" + ` wildcard; a scope may be
  listed once per object, at most 256 per object;
- ` + "`policyType`" + ` decides which root of trust block is required (` + "`publicKey`" + `,
  ` + "`fulcioCAWithRekor`" + `, ` + "`pki`" + `) and forbids the others; keys and certificates are base64 PEM
  data and must start and end with the PEM markers;
- ` + "`signedIdentity.matchPolicy`" + ` likewise requires ` + "`exactRepository`" + ` or ` + "`remapIdentity`" + `, whose
  values may not carry a tag or digest.

The PKI root of trust (` + "`policyType: PKI`" + `) is served by OpenShift 4.21, by 4.20 with
TechPreviewNoUpgrade and by 4.19 with DevPreviewNoUpgrade; elsewhere the ` + "`pki`" + ` block is an
unknown field. A scope YAML reads as a number (` + "`- 123.45`" + `) reaches the API server as a number
and is refused: quote it. The schema checked is the one of the object's apiVersion on the
target release and feature set (` + "`--feature-set`" + `, ` + "`featureSet`" + `, or FeatureGate/cluster).

**Fix:** correct the value as the message says.

` + "```yaml" + `
spec:
  scopes:
  - quay.io/acme          # not "quay.io/Acme", not "registry" (no domain)
  policy:
    rootOfTrust:
      policyType: PublicKey
      publicKey:
        keyData: LS0tLS1CRUdJTi...   # base64 of the PEM public key
` + "```",
	Check: func(c *check.Context) {
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
