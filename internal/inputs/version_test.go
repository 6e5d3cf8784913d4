package inputs

import (
	"testing"

	"github.com/mirrorlint/mirrorlint/render"
)

func ver(minor, patch int) render.Version { return render.Version{Minor: minor, Patch: patch} }

// ClusterImageSet names as hub repositories write them (clusterImageSetNameRef,
// imageSetRef), and strings that hold a "4" without naming a release.
func TestNameVersion(t *testing.T) {
	for _, tc := range []struct {
		name string
		want render.Version
	}{
		{"img4.14.5-x86-64-appsub", ver(14, 5)},
		{"img4.20-x86-64-appsub", ver(20, -1)},
		{"img4.17-x86-64", ver(17, -1)},
		{"img4.20.15-x86-64", ver(20, 15)},
		{"openshift-v4.16.3", ver(16, 3)},
		{"openshift-v4.10.43-quay", ver(10, 43)},
		{"openshift-4.21", ver(21, -1)},
		{"openshift-4.22", ver(22, -1)},
		{"ocp-4.15.0", ver(15, 0)},
		{"4.20.0", ver(20, 0)},
		{"4.15", ver(15, -1)},
		{"ocp-4_18", ver(18, -1)},
		{"openshift-4-14", ver(14, -1)},
		// Releases before 4.10 are releases too.
		{"img4.9.x-x86-64-appsub", ver(9, -1)},
		{"img4.9.25-x86-64-appsub", ver(9, 25)},
		{"openshift-4.9", ver(9, -1)},
		{"ocp-4.9", ver(9, -1)},
		{"openshift-v4.9.19", ver(9, 19)},
		{"img4.4.0-rc.6-x86-64", ver(4, 0)},
		// The first version written wins; x86-64's "64" starts none.
		{"x86-64-4.14", ver(14, -1)},
		{"aarch64-openshift-4.16", ver(16, -1)},
		// No release.
		{"latest", render.Version{}},
		{"active-ocp-version", render.Version{}},
		{"img-set", render.Version{}},
		{"cluster-image-set", render.Version{}},
		{"openshift-v4100-rc1", render.Version{}},
		{"ncp-24-7-mp1-release", render.Version{}},
		{"release-2024-10-01", render.Version{}},
		{"ocp-2024.10", render.Version{}},
		{"rhel-8.4-10", render.Version{}},
		{"site-4-1", render.Version{}},
		{"rack4-2-img", render.Version{}},
		{"openshift-4.0", render.Version{}},
		{"openshift-4.x", render.Version{}},
		{"ocp-4.100", render.Version{}},
		{"obfuscated-cluster-image-set-1", render.Version{}},
	} {
		if got := nameVersion(tc.name); got != tc.want {
			t.Errorf("nameVersion(%q) = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// Release image references as ClusterImageSets and HostedClusters write
// them: the tag names the release, a digest names none.
func TestReleaseTagVersion(t *testing.T) {
	for _, tc := range []struct {
		image string
		want  render.Version
	}{
		{"quay.io/openshift-release-dev/ocp-release:4.14.12-x86_64", ver(14, 12)},
		{"quay.io/openshift-release-dev/ocp-release:4.19.11-multi", ver(19, 11)},
		{"quay.io/openshift-release-dev/ocp-release:4.10.0-rc.1-x86_64", ver(10, 0)},
		{"quay.io/openshift-release-dev/ocp-release:4.9.5-x86_64", ver(9, 5)},
		{"myregistry.com:8443/openshift/release-images:4.19.11-x86_64", ver(19, 11)},
		{"mirror.example.com:5000/ocp4/openshift4:4.16", ver(16, -1)},
		{"quay.io/openshift/okd:4.15.0-0.okd-2024-03-10-010116", ver(15, 0)},
		{"quay.io/openshift-release-dev/ocp-release:4.14.12-x86_64@sha256:" + sha, ver(14, 12)},
		{"quay.io/openshift-release-dev/ocp-release@sha256:" + sha, render.Version{}},
		{"quay.io/openshift-release-dev/ocp-release", render.Version{}},
		{"quay.io/openshift-release-dev/ocp-release:latest", render.Version{}},
		{"quay.io/openshift-release-dev/ocp-release:stable-4.14", render.Version{}},
		{"registry.example.com:4.14/ocp-release", render.Version{}},
		{"{{ .Values.releaseImage }}", render.Version{}},
		{"", render.Version{}},
	} {
		if got := releaseTagVersion(tc.image); got != tc.want {
			t.Errorf("releaseTagVersion(%q) = %+v, want %+v", tc.image, got, tc.want)
		}
	}
}

const sha = "0000000000000000000000000000000000000000000000000000000000000000"
