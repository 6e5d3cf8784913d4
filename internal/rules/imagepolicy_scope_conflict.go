package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var imagePolicyScopeConflict = &check.Rule{
	ID:       "imagepolicy-scope-conflict",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "An ImagePolicy scope equals or lies inside a ClusterImagePolicy scope: MCO drops it and marks the ImagePolicy Pending.",
	Doc:      doc("imagepolicy-scope-conflict"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		cluster := clusterPolicyScopes(c.Context)
		for _, ip := range imagePolicyScopes(c.Context) {
			for _, cp := range cluster {
				if !scopes.IsNested(ip.scope, cp.scope) {
					continue
				}
				rel := "equals"
				if ip.scope != cp.scope {
					rel = "lies inside"
				}
				f := c.Report(ip.obj, ip.path(),
					"ImagePolicy scope %s %s scope %s of %s: MCO drops it from %s (only the cluster policy applies) and sets the ImagePolicy Pending, reason ConflictScopes, which it never clears",
					ip.scope, rel, cp.scope, cp.where(), policyFileOf(ip))
				if cp.obj != nil {
					f.Also(cp.obj, cp.path())
				}
				break
			}
		}
	},
}
