package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// policyScope is one scope of a signature policy the cluster has: obj is
// nil for the default "openshift" ClusterImagePolicy, which is not in the
// tree.
type policyScope struct {
	scope     string
	obj       *manifest.Object
	index     int // in spec.scopes
	namespace string
}

func (p policyScope) path() manifest.Path { return manifest.Path{"spec", "scopes", p.index} }

// where names the policy for a message.
func (p policyScope) where() string {
	if p.obj == nil {
		return "the default ClusterImagePolicy " + `"` + render.DefaultPolicyName + `"`
	}
	return p.obj.Ref()
}

// clusterPolicyScopes lists the ClusterImagePolicy scopes the render uses
// (the served objects, the default policy in place of a tree object of its
// name), in the order MCO reads them (the plan's PolicyScopes).
func clusterPolicyScopes(c *check.Context) []policyScope { return policyScopesMemo.Get(c).cluster }

// imagePolicyScopes lists the ImagePolicy scopes of the served objects, by
// namespace and name.
func imagePolicyScopes(c *check.Context) []policyScope { return policyScopesMemo.Get(c).image }

type scopeLists struct{ cluster, image []policyScope }

var policyScopesMemo = check.NewMemo("rules.policyScopes", func(c *check.Context) scopeLists {
	var out scopeLists
	for _, s := range c.Plan.PolicyScopes() {
		ps := policyScope{scope: s.Scope, obj: c.SubjectObject(s.At), index: s.Index, namespace: s.Namespace}
		if s.At.Kind == render.KindImagePolicy {
			out.image = append(out.image, ps)
		} else {
			out.cluster = append(out.cluster, ps)
		}
	}
	return out
})

// policyScopeFindings is the plan's PolicyScopeFindings, computed once for
// the two rules that split it by message (policy-scope-blocked,
// policy-scope-not-allowed).
func policyScopeFindings(c *check.Context) []render.Finding { return policyScopeMemo.Get(c) }

var policyScopeMemo = check.NewMemo("rules.policyScopeFindings", func(c *check.Context) []render.Finding {
	return c.Plan.PolicyScopeFindings()
})

// policyScopeRefusalNote ends the findings of both policy scope rules.
const policyScopeRefusalNote = "MCO refuses to render and only logs it: the previous MachineConfig stays and every later registry change stops applying"

// reportSubject reports at a render subject, with the render's related
// values as related locations; nil when the subject names nothing in the
// tree.
func reportSubject(c *check.Pass, s render.Subject, related []render.Subject, format string, args ...any) *check.Finding {
	o := c.SubjectObject(s)
	if o == nil {
		return nil
	}
	f := c.Report(o, manifest.ParsePath(s.Path), format, args...)
	for _, r := range related {
		if ro := c.SubjectObject(r); ro != nil {
			f.Also(ro, manifest.ParsePath(r.Path))
		}
	}
	return f
}
