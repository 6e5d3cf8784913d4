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
	Doc: `When two ClusterImagePolicies name the same scope, or two ImagePolicies of one namespace do,
the node must satisfy every requirement (they are ANDed), which is rarely what was meant: an
image signed with only one of the keys is refused. MCO also collects the policies from its
informer cache in no fixed order, so the order of the requirements in
` + "`/etc/containers/policy.json`" + ` (or the namespace's file) can change from one sync to the next
without any edit, and every change is a new rendered MachineConfig that reloads CRI-O on
every node. mirrorlint renders them by object name, one of MCO's possible answers.

The default ClusterImagePolicy ` + "`openshift`" + ` of 4.21 counts: a ClusterImagePolicy of your own for
` + "`quay.io/openshift-release-dev/ocp-release`" + ` is ANDed with Red Hat's key.

**Fix:** keep each scope in one policy; to accept either of two keys, split the scope.`,
	Check: func(c *check.Context) {
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
		report(clusterPolicyScopes(c), func(policyScope) string { return "" })
		report(imagePolicyScopes(c), func(p policyScope) string { return p.namespace })
	},
}

func nsNote(p policyScope) string {
	if p.namespace == "" {
		return ""
	}
	return fmt.Sprintf(" (in /etc/crio/policies/%s.json)", p.namespace)
}
