package inputs

import (
	"testing"

	"github.com/mirrorlint/mirrorlint/render"
)

// A reference install-config's placeholder mirror is no value to judge:
// openshift-install's name check is not reported on it, the cluster is
// created, and the mirror set written from it holds the placeholder, for
// the placeholder rule to report once and keep out of the render. A real
// malformed mirror beside it is still refused.
func TestInstallConfigPlaceholderUnjudged(t *testing.T) {
	const ic = `apiVersion: v1
metadata:
  name: hub
imageDigestSources:
- mirrors:
  - <registry.example.com:8443>/openshift-release-dev/ocp-release
  source: quay.io/openshift-release-dev/ocp-release
`
	res := readTree(t, map[string]string{"install-config.yaml": ic}, render.Version{})
	for _, f := range res.Findings {
		if f.Rule == RuleInstallMirrorFormat {
			t.Errorf("a placeholder judged: %s", f.Message)
		}
	}
	if len(res.Clusters) != 1 || res.Clusters[0].Refused || len(res.Clusters[0].Objects) != 1 || len(res.Clusters[0].Objects[0].Placeholders) != 1 {
		t.Fatalf("want one cluster whose mirror set holds the placeholder, got %+v", res.Clusters)
	}

	res = readTree(t, map[string]string{"install-config.yaml": ic + "- mirrors: [Mirror.example.com/A]\n  source: quay.io/a\n"}, render.Version{})
	var refused int
	for _, f := range res.Findings {
		if f.Rule == RuleInstallMirrorFormat {
			refused++
		}
	}
	if refused != 1 || !res.Clusters[0].Refused {
		t.Errorf("the malformed mirror beside the placeholder: %d findings, refused %v; want one, refused", refused, res.Clusters[0].Refused)
	}
}
