package resolve

import (
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/render"
)

// A ClusterImagePolicy for quay.io/acme with a digest mirror: a pull by
// digest of quay.io/acme/app is verified against the policy's scope, and
// the node looks for the signature as an attachment in the mirror and in
// the primary; an image outside the scope falls to the default.
func TestSignature(t *testing.T) {
	key := []byte("-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----\n")
	cip := &configv1.ClusterImagePolicy{Spec: configv1.ClusterImagePolicySpec{
		Scopes: []configv1.ImageScope{"quay.io/acme"},
		Policy: configv1.Policy{
			RootOfTrust:    configv1.PolicyRootOfTrust{PolicyType: configv1.PublicKeyRootOfTrust, PublicKey: &configv1.PublicKey{KeyData: key, RekorKeyData: key}},
			SignedIdentity: &configv1.PolicyIdentity{MatchPolicy: configv1.IdentityMatchPolicyMatchRepository},
		},
	}}
	cip.Name = "acme"
	idms := &configv1.ImageDigestMirrorSet{Spec: configv1.ImageDigestMirrorSetSpec{ImageDigestMirrors: []configv1.ImageDigestMirrors{
		{Source: "quay.io/acme", Mirrors: []configv1.ImageMirror{"mirror.corp.example/acme"}},
	}}}
	idms.Name = "m"
	out, err := render.Render(render.Input{Version: render.Version{Minor: 20, Patch: -1},
		IDMSs: []*configv1.ImageDigestMirrorSet{idms}, ClusterImagePolicies: []*configv1.ClusterImagePolicy{cip}})
	if err != nil {
		t.Fatal(err)
	}
	digest := "sha256:" + strings.Repeat("ab", 32)
	res, err := Resolve(out.RegistriesConf, nil, "quay.io/acme/app@"+digest)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.AddSignature(out.PolicyJSON, "/etc/containers/policy.json", out.SigstoreRegistriesYAML); err != nil {
		t.Fatal(err)
	}
	sg := res.Signature
	if sg.Scope != "quay.io/acme" || sg.Default || !sg.Verifies || len(sg.Requirements) != 1 ||
		sg.Requirements[0] != (Requirement{Type: "sigstoreSigned", Trust: "public key with Rekor", SignedIdentity: "matchRepository"}) {
		t.Errorf("policy: %+v", sg)
	}
	want := []Lookup{
		{Reference: "mirror.corp.example/acme/app@" + digest, Namespace: "mirror.corp.example/acme", Attachments: true, Tag: "sha256-" + strings.Repeat("ab", 32) + ".sig"},
		{Reference: "quay.io/acme/app@" + digest, Namespace: "quay.io/acme", Attachments: true, Tag: "sha256-" + strings.Repeat("ab", 32) + ".sig"},
	}
	if len(sg.Lookups) != 2 || sg.Lookups[0] != want[0] || sg.Lookups[1] != want[1] {
		t.Errorf("lookups:\n got %+v\nwant %+v", sg.Lookups, want)
	}

	other, err := Resolve(out.RegistriesConf, nil, "ghcr.io/other/app:v1")
	if err != nil {
		t.Fatal(err)
	}
	if err := other.AddSignature(out.PolicyJSON, "/etc/containers/policy.json", out.SigstoreRegistriesYAML); err != nil {
		t.Fatal(err)
	}
	if s := other.Signature; !s.Default || s.Verifies || len(s.Lookups) != 1 || s.Lookups[0].Attachments {
		t.Errorf("outside every scope: %+v", s)
	}
}
