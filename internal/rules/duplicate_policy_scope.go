package rules

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var duplicatePolicyScope = &check.Rule{
	ID:       "duplicate-policy-scope",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "Several ClusterImagePolicies (or ImagePolicies of one namespace) share a scope: MCO ANDs them in no fixed order.",
	Doc:      doc("duplicate-policy-scope"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		report := func(list []policyScope, group func(policyScope) string) {
			first := map[string]policyScope{}
			for _, p := range list {
				k := group(p) + "\x00" + p.scope
				f, seen := first[k]
				if !seen {
					first[k] = p
					continue
				}
				if f.obj == p.obj && p.obj != nil {
					continue // the same object twice: the CRD refuses that (signature-policy-schema)
				}
				if p.obj == nil {
					p, f = f, p // place it on the object that is in the tree
				}
				fd := c.Report(p.obj, p.path(),
					"scope %s is also in %s: the node must satisfy both policies (ANDed), and MCO lists their requirements in no fixed order, so policy.json can change between syncs without an edit (a new MachineConfig each time)%s",
					p.scope, f.where(), nsNote(p))
				if f.obj != nil {
					fd.Also(f.obj, f.path())
				}
			}
		}
		report(clusterPolicyScopes(c.Context), func(policyScope) string { return "" })
		report(imagePolicyScopes(c.Context), func(p policyScope) string { return p.namespace })
	},
}

func nsNote(p policyScope) string {
	if p.namespace == "" {
		return ""
	}
	return fmt.Sprintf(" (in %s)", policyFileOf(p))
}
