package rules

import (
	"regexp"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var policyScopeAtomic = &check.Rule{
	ID:       "policy-scope-atomic",
	Severity: check.Error,
	Origin:   check.OriginNode,
	Summary:  "A policy scope the CRD accepts but policy.json's \"atomic\" transport rejects (one \"/\" with a tag or digest).",
	Doc:      doc("policy-scope-atomic"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		check := func(p policyScope) {
			if p.obj == nil || strings.Count(p.scope, "/") >= 3 || atomicScopePattern.MatchString(p.scope) {
				return
			}
			c.Report(p.obj, p.path(),
				"scope %q goes under the \"atomic\" transport of %s, whose scope syntax (host[/namespace[/repo[:tag]]]) does not allow a tag or digest here: containers/image refuses the whole file (Invalid scope name %s), so CRI-O would fail every pull (inferred from containers/image, not observed on a node)",
				p.scope, policyFileOf(p), p.scope)
		}
		cluster := clusterPolicyScopes(c.Context)
		for _, p := range cluster {
			check(p)
		}
	ip:
		for _, p := range imagePolicyScopes(c.Context) {
			for _, cp := range cluster {
				if scopes.IsNested(p.scope, cp.scope) {
					continue ip // dropped by MCO (imagepolicy-scope-conflict)
				}
			}
			check(p)
		}
		img, spec := imageCluster(c.Context)
		if img == nil {
			return
		}
		for _, l := range []scopeList{{"blockedRegistries", spec.RegistrySources.BlockedRegistries}, {"allowedRegistries", spec.RegistrySources.AllowedRegistries}} {
			for i, s := range l.values {
				if strings.Count(s, "/") < 3 && !atomicScopePattern.MatchString(s) {
					c.Report(img, l.path(i),
						"%s entry %q goes under the \"atomic\" transport of %s, whose scope syntax (host[/namespace[/repo[:tag]]]) does not allow it: containers/image refuses the whole file (Invalid scope name %s), so CRI-O would fail every pull (inferred from containers/image, not observed on a node)",
						l.field, s, nodefiles.PolicyJSONPath, s)
				}
			}
		}
	},
}

// atomicScopePattern is the scope syntax of containers/image's openshift
// ("atomic") transport.
var atomicScopePattern = regexp.MustCompile(`^[^/]*(/[^:/]*(/[^:/]*(:[^:/]*)?)?)?$`)

// policyFileOf is the node file p's requirements go to: the namespace's
// CRI-O policy for an ImagePolicy scope, else policy.json.
func policyFileOf(p policyScope) string {
	if p.namespace != "" {
		return nodefiles.CRIOPolicyPath(p.namespace)
	}
	return nodefiles.PolicyJSONPath
}
