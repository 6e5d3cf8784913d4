package inputs

import (
	"regexp"
	"strconv"

	"github.com/containers/image/v5/docker/reference"

	"github.com/mirrorlint/mirrorlint/render"
)

// Releases are read from two kinds of text: the tag of a release image
// (a ClusterImageSet's spec.releaseImage, a HostedCluster's
// spec.release.image), which the release tooling writes as
// 4.MINOR.PATCH[-suffix]; and the name of a ClusterImageSet, which people
// write, so that a version has to be told from counters and dates in it.

// A minor beyond this is no release: a number that only looks like one.
const highestMinor = 40

// releaseTag is a release image tag: 4.14.12-x86_64, 4.10.0-rc.1-x86_64,
// 4.19.11-multi, 4.15.0-0.okd-2024-03-10-010116, 4.14 (a mirror's).
var releaseTag = regexp.MustCompile(`^v?4\.(\d+)(?:\.(\d+))?(?:[-+_].*)?$`)

// releaseTagVersion reads 4.MINOR[.PATCH] from the tag of the release
// image img; zero for a digest alone, another tag, or no image reference.
// A tag written with a digest (…:4.14.12-x86_64@sha256:…) still says the
// release.
func releaseTagVersion(img string) render.Version {
	ref, err := reference.ParseNormalizedNamed(img)
	if err != nil {
		return render.Version{}
	}
	tagged, ok := ref.(reference.Tagged)
	if !ok {
		return render.Version{}
	}
	m := releaseTag.FindStringSubmatch(tagged.Tag())
	if m == nil {
		return render.Version{}
	}
	return version(m[1], m[2])
}

// nameVersion is 4.MINOR (patch too when dotted) read from the first
// version written in a ClusterImageSet name: img4.14.5-x86-64-appsub,
// openshift-v4.16.3, ocp-4.9, img4.9.x-x86-64-appsub, openshift-4-14;
// zero when it names none. A "4" counts only where a version can start:
// not after a digit or a dot, which would make it part of another number
// (a date's 2024-10, rhel-8.4-10, the 64 of x86-64-4.14). A dash or an
// underscore after it counts only before a minor of 10 or more (4-14):
// "4-1" is more often a counter than OpenShift 4.1.
func nameVersion(name string) render.Version {
	for i := 0; i < len(name); i++ {
		if name[i] != '4' || (i > 0 && (isDigit(name[i-1]) || name[i-1] == '.')) {
			continue
		}
		if v := nameVersionAt(name[i:]); !v.IsZero() {
			return v
		}
	}
	return render.Version{}
}

// A version as a name writes it, from its "4": dotted, with an optional
// patch, or with a dash or underscore and no patch.
var (
	dottedVersion = regexp.MustCompile(`^4\.(\d+)(?:\.(\d+))?`)
	dashedVersion = regexp.MustCompile(`^4[-_](\d+)`)
)

func nameVersionAt(s string) render.Version {
	if m := dottedVersion.FindStringSubmatch(s); m != nil {
		return version(m[1], m[2])
	}
	if m := dashedVersion.FindStringSubmatch(s); m != nil {
		if v := version(m[1], ""); v.Minor >= 10 {
			return v
		}
	}
	return render.Version{}
}

// version is 4.minor[.patch] from their digits ("" for no patch); zero
// for minor 0, which no release had, or beyond highestMinor.
func version(minor, patch string) render.Version {
	v := render.Version{Patch: -1}
	var err error
	if v.Minor, err = strconv.Atoi(minor); err != nil || v.Minor < 1 || v.Minor > highestMinor {
		return render.Version{}
	}
	if patch != "" {
		if v.Patch, err = strconv.Atoi(patch); err != nil {
			return render.Version{}
		}
	}
	return v
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
