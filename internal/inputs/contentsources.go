package inputs

import (
	"fmt"

	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mirrorlint/mirrorlint/render"
)

// Releases before 4.14 have no imageDigestSources: their installer reads
// the mirrors from imageContentSources and writes ImageContentSourcePolicy
// objects, and assisted-service gives such a spoke its mirrors under that
// key. What each component does, as read in its code:
//
//   - assisted-service (master 063b257950f7, since 96f5fdb77 of Mar 2024),
//     internal/installcfg/builder/builder.go, handleMirrorRegistry: the
//     cluster's OpenShift version (read from its release image) is compared
//     with 4.14.0 by common.BaseVersionGreaterOrEqual, which cuts every
//     "-suffix" off both sides first, so 4.14.0-rc.1 counts as 4.14.0: any
//     4.14 and later gets imageDigestSources (setImageDigestMirrorSet),
//     anything before imageContentSources (setImageContentSources), the
//     same entries either way. The patch plays no part. Both fields are
//     omitempty in installcfg.InstallerConfigBaremetal, so an empty list is
//     not written at all.
//   - openshift-install 4.12 and 4.13 (release-4.12/4.13 as vendored by
//     openshift/installer-aro-wrapper's branches of those names; the
//     upstream branch was not readable here, too big to fetch):
//     pkg/asset/manifests/imagesourcepolicy.go writes one
//     ImageContentSourcePolicy per imageContentSources entry, in order,
//     file manifests/image-content-source-policy-<i>.yaml, object
//     image-policy-<i>, where <i> is zero-padded to the digits of the
//     number of entries (image-policy-00 … image-policy-11 for twelve),
//     source and mirrors copied as written. Its install-config type has no
//     imageDigestSources: pkg/asset/installconfig/installconfigbase.go
//     LoadFromFile decodes strictly, and on an unknown field warns "failed
//     to parse first occurrence of unknown field" (4.12 writes
//     "occurence") and decodes again ignoring it, so the list is dropped.
//     The bootstrap node's registries.conf (pkg/asset/ignition/bootstrap,
//     MergedMirrorSets and the registries.conf.template) groups the entries
//     by source alone and writes no "blocked" line.
//   - openshift-install 4.14 and later (openshift/installer at 41ac01a1 and
//     4b6224ad, code whose field is DeprecatedImageContentSources, and
//     release-4.14 as vendored by installer-aro-wrapper):
//     imagesourcepolicy.go writes imageContentSources, when given instead
//     of imageDigestSources, as one ImageContentSourcePolicy "image-policy"
//     holding every entry in order (manifests/image-content-source-policy.yaml).

// digestSourcesSince is the first release whose installer reads
// imageDigestSources, and whose spokes assisted-service gives them.
const digestSourcesSince = 14

// Install-config keys of the two mirror lists.
const (
	keyDigest  = "imageDigestSources"
	keyContent = "imageContentSources"
)

// readsDigestSources reports whether the installer of release v (zero:
// the newest) reads imageDigestSources.
func readsDigestSources(v render.Version) bool {
	return v.IsZero() || v.Minor >= digestSourcesSince
}

// spokeKey is the install-config key assisted-service writes a spoke's
// mirrors under, by the spoke's release v.
func spokeKey(v render.Version) string {
	if readsDigestSources(v) {
		return keyDigest
	}
	return keyContent
}

// unknownFieldWarning is what openshift-install of release v logs when its
// strict decode of install-config.yaml meets a field it lacks.
func unknownFieldWarning(v render.Version) string {
	if !v.IsZero() && v.Minor == 12 {
		return "failed to parse first occurence of unknown field"
	}
	return "failed to parse first occurrence of unknown field"
}

// installerICSPs are the ImageContentSourcePolicies openshift-install of
// release v writes from imageContentSources list, and for each the entries
// it holds (see above).
func installerICSPs(list []DigestSource, v render.Version) ([]*operatorv1alpha1.ImageContentSourcePolicy, [][]DigestSource) {
	if len(list) == 0 {
		return nil, nil
	}
	if readsDigestSources(v) {
		return []*operatorv1alpha1.ImageContentSourcePolicy{contentPolicy("image-policy", list)}, [][]DigestSource{list}
	}
	width := len(fmt.Sprint(len(list)))
	var icsps []*operatorv1alpha1.ImageContentSourcePolicy
	var groups [][]DigestSource
	for i := range list {
		icsps = append(icsps, contentPolicy(fmt.Sprintf("image-policy-%0*d", width, i), list[i:i+1]))
		groups = append(groups, list[i:i+1])
	}
	return icsps, groups
}

// contentPolicy is the ImageContentSourcePolicy name holding entries, each
// source with its mirrors as written.
func contentPolicy(name string, entries []DigestSource) *operatorv1alpha1.ImageContentSourcePolicy {
	icsp := &operatorv1alpha1.ImageContentSourcePolicy{
		TypeMeta:   metav1.TypeMeta{APIVersion: "operator.openshift.io/v1alpha1", Kind: "ImageContentSourcePolicy"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
	}
	for _, ds := range entries {
		icsp.Spec.RepositoryDigestMirrors = append(icsp.Spec.RepositoryDigestMirrors,
			operatorv1alpha1.RepositoryDigestMirrors{Source: ds.Source, Mirrors: ds.Mirrors})
	}
	return icsp
}

// icspNames says how the installer of release v names the
// ImageContentSourcePolicies of imageContentSources, for messages.
func icspNames(v render.Version) string {
	if readsDigestSources(v) {
		return "the ImageContentSourcePolicy image-policy"
	}
	return "the ImageContentSourcePolicies image-policy-<i>"
}
