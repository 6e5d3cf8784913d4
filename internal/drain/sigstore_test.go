package drain

import (
	"testing"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/render"
)

// Adding, changing and removing signature policies changes policy.json,
// registries.d/sigstore-registries.yaml and /etc/crio/policies/<ns>.json:
// every one of them only reloads CRI-O (default NodeDisruptionPolicy).
func TestSignaturePolicyChangesReloadOnly(t *testing.T) {
	key := []byte("-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----\n")
	policy := configv1.Policy{RootOfTrust: configv1.PolicyRootOfTrust{PolicyType: configv1.PublicKeyRootOfTrust, PublicKey: &configv1.PublicKey{KeyData: key}}}
	cip := &configv1.ClusterImagePolicy{Spec: configv1.ClusterImagePolicySpec{Scopes: []configv1.ImageScope{"quay.io/acme"}, Policy: policy}}
	cip.Name = "acme"
	ip := &configv1.ImagePolicy{Spec: configv1.ImagePolicySpec{Scopes: []configv1.ImageScope{"quay.io/team-a"}, Policy: policy}}
	ip.Name, ip.Namespace = "p", "team-a"
	v := render.Version{Minor: 20, Patch: -1}
	renderOf := func(in render.Input) *render.Output {
		in.Version = v
		out, err := render.Render(in)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	none := renderOf(render.Input{})
	cluster := renderOf(render.Input{ClusterImagePolicies: []*configv1.ClusterImagePolicy{cip}})
	both := renderOf(render.Input{ClusterImagePolicies: []*configv1.ClusterImagePolicy{cip}, ImagePolicies: []*configv1.ImagePolicy{ip}})

	files := func(vd Verdict) map[string]string {
		m := map[string]string{}
		for _, r := range vd.Reasons {
			m[r.File] = r.Message
			if r.Drain {
				t.Errorf("%s drains: %s", r.File, r.Message)
			}
		}
		if vd.Drain || vd.Reboot {
			t.Errorf("verdict drains: %+v", vd)
		}
		return m
	}
	added := files(Compare(none, cluster))
	if len(added) != 2 || added[PolicyJSONPath] == "" || added[SigstorePath] != "sigstore-registries.yaml (where signatures are looked up) written: CRI-O is reloaded" {
		t.Errorf("adding a ClusterImagePolicy: %v", added)
	}
	ns := files(Compare(cluster, both))
	nsFile := nodefiles.CRIOPolicyPath("team-a")
	if len(ns) != 2 || ns[nsFile] != "the policy of namespace team-a written: CRI-O is reloaded" || ns[SigstorePath] == "" {
		t.Errorf("adding an ImagePolicy: %v", ns)
	}
	removed := files(Compare(both, none))
	if len(removed) != 3 || removed[nsFile] != "the policy of namespace team-a removed: CRI-O is reloaded" {
		t.Errorf("removing both: %v", removed)
	}
	if same := Compare(both, both); len(same.Reasons) != 0 {
		t.Errorf("no change: %+v", same.Reasons)
	}
}
