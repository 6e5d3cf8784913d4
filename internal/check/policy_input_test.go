package check

import (
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"os"
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

const policyTree = `apiVersion: config.openshift.io/v1alpha1
kind: ClusterImagePolicy
metadata: {name: alpha}
spec:
  scopes: [quay.io/a]
  policy: {rootOfTrust: {policyType: PublicKey, publicKey: {keyData: YQ==}}}
---
apiVersion: config.openshift.io/v1
kind: ClusterImagePolicy
metadata: {name: ga}
spec:
  scopes: [quay.io/b]
  policy: {rootOfTrust: {policyType: PublicKey, publicKey: {keyData: YQ==}}, signedIdentity: {matchPolicy: MatchRepository}}
`

const techPreview = `---
apiVersion: config.openshift.io/v1
kind: FeatureGate
metadata: {name: cluster}
spec: {featureSet: TechPreviewNoUpgrade}
`

const unmanaged = `---
apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata: {name: version}
spec:
  overrides:
  - {kind: ClusterImagePolicy, group: config.openshift.io, name: openshift, namespace: "", unmanaged: true}
`

func loadTree(t *testing.T, text string) []*manifest.Object {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := manifest.Load([]string{dir}, manifest.Options{})
	if err != nil || len(set.Problems) > 0 {
		t.Fatalf("%v %v", err, set.Problems)
	}
	return set.Objects
}

// Which policies the render gets, and whether the default one is assumed,
// by release, feature set (tree or settings) and ClusterVersion override.
func TestPolicyInputs(t *testing.T) {
	v := func(minor int) render.Version { return render.Version{Minor: minor, Patch: -1} }
	for _, tc := range []struct {
		name     string
		tree     string
		s        cluster.Settings
		names    []string
		dflt     bool
		featured string
	}{
		{"4.19 Default serves none", policyTree, cluster.Settings{Version: v(19)}, nil, false, FeatureSetDefault},
		{"4.19 TechPreview from the tree", policyTree + techPreview, cluster.Settings{Version: v(19)}, []string{"alpha"}, true, FeatureSetTechPreview},
		{"4.19 TechPreview from the settings", policyTree, cluster.Settings{Version: v(19), FeatureSet: FeatureSetTechPreview}, []string{"alpha"}, true, FeatureSetTechPreview},
		{"4.19 DevPreview: served, no default", policyTree, cluster.Settings{Version: v(19), FeatureSet: FeatureSetDevPreview}, []string{"alpha"}, false, FeatureSetDevPreview},
		{"4.20 Default", policyTree, cluster.Settings{Version: v(20)}, []string{"ga"}, false, FeatureSetDefault},
		{"4.20 TechPreview installs the default", policyTree + techPreview, cluster.Settings{Version: v(20)}, []string{"ga"}, true, FeatureSetTechPreview},
		{"4.21", policyTree, cluster.Settings{Version: v(21)}, []string{"ga"}, true, FeatureSetDefault},
		{"4.21 override", policyTree + unmanaged, cluster.Settings{Version: v(21)}, []string{"ga"}, false, FeatureSetDefault},
		{"4.21 settings", policyTree, cluster.Settings{Version: v(21), NoDefaultPolicy: true}, []string{"ga"}, false, FeatureSetDefault},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := BuildInput(loadTree(t, tc.tree), tc.s)
			var names []string
			for _, p := range in.ClusterImagePolicies {
				names = append(names, p.Name)
			}
			if len(names) != len(tc.names) || (len(names) > 0 && names[0] != tc.names[0]) {
				t.Errorf("policies %v, want %v", names, tc.names)
			}
			if in.DefaultPolicy != tc.dflt || in.FeatureSet != tc.featured {
				t.Errorf("default %v (%s), feature set %s", in.DefaultPolicy, in.DefaultPolicyNote, in.FeatureSet)
			}
			if tc.dflt != (in.DefaultPolicyNote != "" && in.DefaultPolicy) {
				t.Errorf("note %q", in.DefaultPolicyNote)
			}
		})
	}
	// The v1alpha1 object arrives in the v1 form; its signedIdentity (none)
	// is nil, the v1 one kept.
	in := BuildInput(loadTree(t, policyTree+techPreview), cluster.Settings{Version: v(19)})
	if p := in.ClusterImagePolicies[0]; p.Spec.Policy.SignedIdentity != nil || string(p.Spec.Scopes[0]) != "quay.io/a" || string(p.Spec.Policy.RootOfTrust.PublicKey.KeyData) != "a" {
		t.Errorf("converted v1alpha1: %+v", p.Spec)
	}
}
