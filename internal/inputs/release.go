package inputs

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// RuleReleaseUnmodelled: a created cluster's release, read from its
// inputs, is outside the releases mirrorlint models.
const RuleReleaseUnmodelled = "release-unmodelled"

// modelled is the release a created cluster whose inputs name v is
// checked as: v when mirrorlint models it, else the nearest release it
// models (false), which releaseNote says.
func modelled(v render.Version) (render.Version, bool) {
	switch {
	case v.Minor < render.Oldest.Minor:
		return render.Version{Minor: render.Oldest.Minor, Patch: -1}, false
	case v.Minor > render.Newest.Minor:
		return render.Version{Minor: render.Newest.Minor, Patch: -1}, false
	}
	return v, true
}

// checkedAs is the release a cluster whose input names v is checked and
// rendered as: the one the run is given (not zero), else the nearest
// modelled one; ok is false when v is outside the modelled releases.
func checkedAs(v, given render.Version) (used render.Version, ok bool) {
	near, ok := modelled(v)
	if !given.IsZero() {
		return given, ok
	}
	return near, ok
}

// releaseNote says that the release v, read at at (from names the value),
// is outside the modelled ones, and that the cluster is checked as used:
// the nearest release mirrorlint models, whose MCO and installer may do
// otherwise (--openshift-version refuses v for the same reason), or the
// release the run is given, which every cluster is checked as.
func releaseNote(fs *findings, v, used render.Version, at manifest.Position, from string) {
	how := "whose MCO and installer may differ from its own"
	if near, _ := modelled(v); used != near {
		how = "the release the run is given (--openshift-version or openshiftVersion), not the nearest modelled one"
	}
	fs.add(at, check.Info, RuleReleaseUnmodelled, "mirrorlint",
		"%s names OpenShift 4.%d, outside the releases mirrorlint models (4.%d–4.%d): the cluster is checked and rendered as %s, %s",
		from, v.Minor, render.Oldest.Minor, render.Newest.Minor, used, how)
}
