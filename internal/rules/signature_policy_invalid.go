package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var signaturePolicyInvalid = &check.Rule{
	ID:       "signature-policy-invalid",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "MCO cannot turn a ClusterImagePolicy or ImagePolicy into a signature requirement, or their scopes into registries.d entries.",
	Doc:      doc("signature-policy-invalid"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, p := range c.Plan.PolicyProblems() {
			reportSubject(c, p.Subject, nil, "MCO refuses to render: %s", p.Message)
		}
		// The registries.d step has no rule of its own: the renderer's
		// verdict is reported where it points.
		if r := c.Refusal; r != nil && r.Prefix == "" && (strings.HasPrefix(r.Reason, "error adding clusterimagepolicy scope ") || strings.HasPrefix(r.Reason, "loading registries configuration")) {
			reportSubject(c, r.Subject, r.Related, "MCO refuses to render: %s", r.Reason)
		}
	},
}
