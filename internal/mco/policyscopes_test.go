package mco

import (
	"fmt"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
)

func scopedCIP(name string, scopes ...string) *configv1.ClusterImagePolicy {
	c := &configv1.ClusterImagePolicy{}
	c.Name = name
	for _, s := range scopes {
		c.Spec.Scopes = append(c.Spec.Scopes, configv1.ImageScope(s))
	}
	return c
}

func scopedIP(ns, name string, scopes ...string) *configv1.ImagePolicy {
	p := &configv1.ImagePolicy{}
	p.Namespace, p.Name = ns, name
	for _, s := range scopes {
		p.Spec.Scopes = append(p.Spec.Scopes, configv1.ImageScope(s))
	}
	return p
}

// TestPlanPolicyScopes: every written scope in MCO's reading order (cluster
// policies by name with the default one among them, then image policies by
// namespace and name), repeats and scopes MCO drops included.
func TestPlanPolicyScopes(t *testing.T) {
	in := Input{
		Version:       Version{Minor: 20, Patch: -1},
		DefaultPolicy: true,
		ClusterImagePolicies: []*configv1.ClusterImagePolicy{
			scopedCIP("zeta", "z.example/a", "quay.io/openshift-release-dev/ocp-release"),
			scopedCIP("openshift", "replaced.example"), // the default policy takes its place
			scopedCIP("alpha", "a.example/x", "a.example/x"),
		},
		ImagePolicies: []*configv1.ImagePolicy{
			scopedIP("ns-b", "p", "b.example"),
			scopedIP("ns-a", "q", "z.example/a/inside"),
		},
	}
	var got []string
	for _, s := range NewPlan(in).PolicyScopes() {
		got = append(got, fmt.Sprintf("%s ns=%s %s[%d] %s idx=%d", s.Scope, s.Namespace, s.At.Kind, s.At.Index, s.At.Path, s.Index))
	}
	want := []string{
		"a.example/x ns= ClusterImagePolicy[2] spec.scopes[0] idx=0",
		"a.example/x ns= ClusterImagePolicy[2] spec.scopes[1] idx=1",
		"quay.io/openshift-release-dev/ocp-release ns= ClusterImagePolicy[-1] spec.scopes[0] idx=0",
		"z.example/a ns= ClusterImagePolicy[0] spec.scopes[0] idx=0",
		"quay.io/openshift-release-dev/ocp-release ns= ClusterImagePolicy[0] spec.scopes[1] idx=1",
		"z.example/a/inside ns=ns-a ImagePolicy[1] spec.scopes[0] idx=0",
		"b.example ns=ns-b ImagePolicy[0] spec.scopes[0] idx=0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("PolicyScopes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	in.Version = Version{Minor: 17, Patch: -1}
	if got := NewPlan(in).PolicyScopes(); got != nil {
		t.Errorf("4.17: %v, want none (MCO reads no signature policies)", got)
	}
}
