package rules

import (
	"sort"

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
// name), objects by name as MCO's lister gives them.
func clusterPolicyScopes(c *check.Context) []policyScope {
	cips, _ := c.Input.PolicyObjects()
	objs := append([]*manifest.Object(nil), cips...)
	sort.SliceStable(objs, func(a, b int) bool { return objs[a].Name < objs[b].Name })
	var out []policyScope
	defaultDone := !c.Input.DefaultPolicy
	addDefault := func() {
		out = append(out, policyScope{scope: render.DefaultPolicyScope})
		defaultDone = true
	}
	for _, o := range objs {
		if !defaultDone && o.Name >= render.DefaultPolicyName {
			addDefault()
		}
		if c.Input.DefaultPolicy && o.Name == render.DefaultPolicyName {
			continue
		}
		for i, s := range o.ClusterImagePolicy.Spec.Scopes {
			out = append(out, policyScope{scope: string(s), obj: o, index: i})
		}
	}
	if !defaultDone {
		addDefault()
	}
	if !c.Settings.Version.AtLeast(18) {
		return nil
	}
	return out
}

// imagePolicyScopes lists the ImagePolicy scopes of the served objects, by
// namespace and name.
func imagePolicyScopes(c *check.Context) []policyScope {
	_, ips := c.Input.PolicyObjects()
	objs := append([]*manifest.Object(nil), ips...)
	sort.SliceStable(objs, func(a, b int) bool {
		x, y := objs[a].ImagePolicy, objs[b].ImagePolicy
		return x.Namespace < y.Namespace || x.Namespace == y.Namespace && x.Name < y.Name
	})
	var out []policyScope
	if !c.Settings.Version.AtLeast(18) {
		return nil
	}
	for _, o := range objs {
		for i, s := range o.ImagePolicy.Spec.Scopes {
			out = append(out, policyScope{scope: string(s), obj: o, index: i, namespace: o.ImagePolicy.Namespace})
		}
	}
	return out
}

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
