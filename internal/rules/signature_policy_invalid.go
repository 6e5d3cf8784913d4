package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/render"
)

var signaturePolicyInvalid = &check.Rule{
	ID:       "signature-policy-invalid",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "MCO cannot turn a ClusterImagePolicy or ImagePolicy into a signature requirement, or their scopes into registries.d entries.",
	Doc:      doc("signature-policy-invalid"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		v := c.Settings.Version
		if !v.AtLeast(18) {
			return
		}
		cips, ips := c.Input.PolicyObjects()
		for _, o := range append(append([]*manifest.Object(nil), cips...), ips...) {
			var p *mco.Finding
			if o.ClusterImagePolicy != nil {
				if c.Input.DefaultPolicy && o.Name == render.DefaultPolicyName {
					continue
				}
				p = mco.PolicyProblem(o.ClusterImagePolicy.Spec.Policy, v)
			} else {
				p = mco.PolicyProblem(o.ImagePolicy.Spec.Policy, v)
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
