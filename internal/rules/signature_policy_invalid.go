package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

var signaturePolicyInvalid = &check.Rule{
	ID:       "signature-policy-invalid",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "MCO cannot turn a ClusterImagePolicy or ImagePolicy into a signature requirement, or their scopes into registries.d entries.",
	Doc: `MCO turns each policy into a containers/image ` + "`sigstoreSigned`" + ` requirement and refuses the
render (it logs the reason, keeps the previous MachineConfig and stops applying later
registry changes) when containers/image refuses it, for example:

- a ` + "`remapIdentity`" + ` prefix that is not a host[:port] or a repository under one
  (` + "`prefix \"…\" is not valid`" + `), or an ` + "`exactRepository`" + ` that does not parse;
- a root of trust that gives no key (` + "`exactly one of keyPath, keyPaths, keyData, keyDatas, fulcio, and pki must be specified`" + `),
  e.g. ` + "`policyType: PKI`" + ` on 4.18, whose MCO has no PKI support, or an unknown policy type,
  which the Default CRD does not stop;
- a Fulcio root of trust without OIDC issuer, e-mail or Rekor key.

It also refuses when it cannot work out the registries.d entries for a scope: when a mirror
cannot rewrite the scope's references (4.19 kept a trailing "/" on mirror locations) or a
scope does not parse as an image reference. The CRD prevents most of these; the rule
catches what gets past it.

**Fix:** correct the field the message names.`,
	Check: func(c *check.Context) {
		v := c.Settings.Version
		if !v.AtLeast(18) {
			return
		}
		cips, ips := c.Input.PolicyObjects()
		for _, o := range append(append([]*manifest.Object(nil), cips...), ips...) {
			var p *render.Finding
			if o.ClusterImagePolicy != nil {
				if c.Input.DefaultPolicy && o.Name == render.DefaultPolicyName {
					continue
				}
				p = render.PolicyProblem(o.ClusterImagePolicy.Spec.Policy, v)
			} else {
				p = render.PolicyProblem(o.ImagePolicy.Spec.Policy, v)
			}
			if p != nil {
				c.Report(o, manifest.ParsePath(p.Subject.Path), "MCO refuses to render: %s", p.Message)
			}
		}
		// The registries.d step has no rule of its own: the renderer's
		// verdict is reported where it points.
		if r := c.Refusal; r != nil && r.Prefix == "" && (strings.HasPrefix(r.Reason, "error adding clusterimagepolicy scope ") || strings.HasPrefix(r.Reason, "loading registries configuration")) {
			reportSubject(c, r.Subject, r.Related, "MCO refuses to render: %s", r.Reason)
		}
	},
}
