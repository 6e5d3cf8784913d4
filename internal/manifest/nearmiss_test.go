package manifest

import "testing"

func TestNearMiss(t *testing.T) {
	t.Parallel()
	cases := []struct {
		apiVersion, kind string
		want             Kind
	}{
		{"config.openshift.io/v1", "imagedigestmirrorset", KindIDMS},
		{"config.openshift.io/v1", "ImageDigestMirrorSets", KindIDMS},
		{"config.openshift.io/v1", "ImageTagMirrorset", KindITMS},
		{"operator.openshift.io/v1alpha1", "ImageContentSourcePolicies", ""}, // three edits: too far
		{"operator.openshift.io/v1alpha1", "ImageContentSourcePolicys", KindICSP},
		{"config.openshift.io/v1", "IMAGE", KindImage},
		{"config.opensift.io/v1", "Image", KindImage},
		{"config.openshift.io/v1alpha1", "Image", ""}, // a wrong version, not a misspelling
		{"image.openshift.io/v1", "image", ""},
		{"image.openshift.io/v1", "Image", ""},
		{"image.openshift.io/v1", "ImageTag", ""},
		{"config.openshift.io/v1", "ImagePolicy", ""},
		{"apps/v1", "Deployment", ""},
		{"config.openshift.io/v1", "ImageDigestMirrorSet", ""}, // exact
		{"", "", ""},
	}
	for _, c := range cases {
		k, av, ok := NearMiss(c.apiVersion, c.kind)
		if k != c.want || ok != (c.want != "") || ok && av != c.want.APIVersion() {
			t.Errorf("NearMiss(%q, %q) = %q, %q, %v; want %q", c.apiVersion, c.kind, k, av, ok, c.want)
		}
	}
}
