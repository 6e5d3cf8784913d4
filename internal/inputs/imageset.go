package inputs

import (
	"fmt"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/sites"
	"github.com/mirrorlint/mirrorlint/render"
)

// KindClusterImageSet is hive's ClusterImageSet (hive.openshift.io/v1,
// cluster-scoped): a name for a release image, which a spoke names.
const KindClusterImageSet = "ClusterImageSet"

// A spoke's release is its ClusterImageSet's release image, not the
// set's name. assisted-service (master 063b257950f7) gets the
// ClusterImageSet an AgentClusterInstall's spec.imageSetRef names by name
// alone, with no namespace, since the kind is cluster-scoped
// (ClusterDeploymentsReconciler.ensureClusterImageSetRef,
// internal/controller/controllers/clusterdeployments_controller.go), and
// hands its spec.releaseImage to the versions handler
// (getReleaseImage → GetReleaseImageByURL), which learns the
// OpenShift version by running `oc adm release info` on that image and
// reading the version recorded in its metadata
// (kubeAPIVersionsHandler.addReleaseImage, internal/versions; the
// command in internal/oc/release.go). The name plays no part. Offline,
// the image's tag is the nearest thing to that metadata: the release
// tooling tags a release image with its version (4.14.12-x86_64). A
// digest says nothing without a pull, and neither does a tree without
// the object: the name is then the only hint left, as people name sets
// after their release (img4.14.12-x86-64-appsub).

// spokeRelease is the release a spoke is read as: where it comes from
// and what it says.
type spokeRelease struct {
	// v is the release named; zero when nothing names one.
	v render.Version
	// at is where v is written (the set's spec.releaseImage, else the
	// spoke's reference), from names that value in a note.
	at   manifest.Position
	from string
	// set is the ClusterImageSet the spoke names, nil when the tree holds
	// none of that name.
	set *manifest.Object
}

// releaseOf reads the release of the spoke s from the ClusterImageSet of
// sets its reference names (the nearest, see pickImageSet), else from the
// name.
func releaseOf(s *sites.Site, sets []*manifest.Object) spokeRelease {
	if s.ImageSet == "" {
		return spokeRelease{}
	}
	field := "clusterImageSetNameRef"
	if s.Kind == sites.KindAgentClusterInstall {
		field = "imageSetRef"
	}
	ref := s.Object.Locate(s.ImageSetPath)
	r := spokeRelease{v: nameVersion(s.ImageSet), at: ref, from: field + " " + s.ImageSet}
	r.set = pickImageSet(sets, s.ImageSet, s.Object.File)
	if r.set == nil {
		return r
	}
	img, _ := manifest.NestedString(r.set.Content, "spec", "releaseImage")
	if v := releaseTagVersion(img); !v.IsZero() {
		r.v = v
		r.at = r.set.Locate(manifest.Path{"spec", "releaseImage"})
		r.from = fmt.Sprintf("ClusterImageSet %s (%s of %s, %s): spec.releaseImage %s",
			r.set.Name, field, s.Ref(), ref, img)
	}
	return r
}

// pickImageSet is the ClusterImageSet named name that a reference written
// in file from means: of those of that name, the nearest (see manifest.Nearest).
// The kind is cluster-scoped, so a namespace written on one is not part
// of its identity: each hub holds one set of each name, and a repository
// holding several hubs' sets keeps each beside what it is applied with.
func pickImageSet(sets []*manifest.Object, name, from string) *manifest.Object {
	var named []*manifest.Object
	for _, o := range sets {
		if o.Name == name && strings.HasPrefix(o.APIVersion, "hive.openshift.io/") {
			named = append(named, o)
		}
	}
	return manifest.Nearest(from, named)
}
