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
	Doc: `A ClusterImagePolicy applies to every namespace and wins over an ImagePolicy. MCO drops
each ImagePolicy scope that equals or lies inside a ClusterImagePolicy scope from the
namespace's ` + "`/etc/crio/policies/<namespace>.json`" + `, so only the cluster policy verifies those
images, and sets the ImagePolicy's status to ` + "`Pending`" + ` (status False, reason
` + "`ConflictScopes`" + `): ` + "`has conflicting scope(s) [...] that equal to or nest inside existing clusterimagepolicy, only policy from clusterimagepolicy scope(s) will be applied`" + `.
MCO never sets the condition back once the conflict is gone.

The default ClusterImagePolicy of 4.21 (` + "`quay.io/openshift-release-dev/ocp-release`" + `, not in Git)
counts too.

**Fix:** drop the scope from the ImagePolicy, or narrow the ClusterImagePolicy; to require the
namespace's own key as well, express it in the ClusterImagePolicy.`,
	Check: func(c *check.Context) {
		cluster := clusterPolicyScopes(c)
		for _, ip := range imagePolicyScopes(c) {
			for _, cp := range cluster {
				if !scopes.IsNested(ip.scope, cp.scope) {
					continue
				}
				rel := "equals"
				if ip.scope != cp.scope {
					rel = "lies inside"
				}
				f := c.Report(ip.obj, ip.path(),
					"ImagePolicy scope %s %s scope %s of %s: MCO drops it from /etc/crio/policies/%s.json (only the cluster policy applies) and sets the ImagePolicy Pending, reason ConflictScopes, which it never clears",
					ip.scope, rel, cp.scope, cp.where(), ip.namespace)
				if cp.obj != nil {
					f.Also(cp.obj, cp.path())
				}
				break
			}
		}
	},
}
