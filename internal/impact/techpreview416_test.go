package impact

import (
	"strings"
	"testing"
)

// On 4.16 the node-disruption policy is followed only with the
// TechPreviewNoUpgrade (or DevPreviewNoUpgrade) feature set, as the
// feature gate of that release has it; Default keeps the legacy verdict.
func TestPolicies416TechPreview(t *testing.T) {
	mc := `apiVersion: operator.openshift.io/v1
kind: MachineConfiguration
metadata: {name: cluster}
spec:
  nodeDisruptionPolicy:
    files:
    - path: /etc/containers/registries.conf
      actions: [{type: Restart, restart: {serviceName: crio.service}}]
`
	gate := func(set string) string {
		return "apiVersion: config.openshift.io/v1\nkind: FeatureGate\nmetadata: {name: cluster}\nspec: {featureSet: " + set + "}\n"
	}
	for _, tc := range []struct {
		featureSet, action, actions string
		policy                      bool
	}{
		{"TechPreviewNoUpgrade", ActionReload, "Restart - crio.service", true},
		{"DevPreviewNoUpgrade", ActionReload, "Restart - crio.service", true},
		{"Default", ActionDrain, "", false},
	} {
		old := map[string]string{"idms.yaml": ndpIDMS, "mc.yaml": mc, "fg.yaml": gate(tc.featureSet)}
		res := compareTrees(t, "4.16", old, map[string]string{"mc.yaml": mc, "fg.yaml": gate(tc.featureSet)})
		if res.Action != tc.action || (tc.policy && strings.Join(res.Actions, ",") != tc.actions) {
			t.Errorf("%s: action %s %q, want %s %q", tc.featureSet, res.Action, res.Actions, tc.action, tc.actions)
		}
		if got := res.Clusters[0].Policy != nil; got != tc.policy {
			t.Errorf("%s: policy result %v, want %v", tc.featureSet, got, tc.policy)
		}
	}
}
