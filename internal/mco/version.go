package mco

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is an OpenShift 4.y[.z] release. Patch is -1 when not given.
type Version struct {
	Minor int
	Patch int
}

// Oldest and Newest bound the releases whose behaviour mirrorlint models.
var (
	Oldest = Version{Minor: 12, Patch: -1}
	Newest = Version{Minor: 21, Patch: -1}
)

// ParseVersion reads "4.19" or "4.13.26" (a leading "v" is accepted).
func ParseVersion(s string) (Version, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "4" {
		return Version{}, fmt.Errorf("invalid OpenShift version %q: want 4.MINOR or 4.MINOR.PATCH", s)
	}
	v := Version{Patch: -1}
	var err error
	if v.Minor, err = strconv.Atoi(parts[1]); err != nil || v.Minor < 0 {
		return Version{}, fmt.Errorf("invalid OpenShift version %q: minor %q is not a number", s, parts[1])
	}
	if len(parts) == 3 {
		if v.Patch, err = strconv.Atoi(parts[2]); err != nil || v.Patch < 0 {
			return Version{}, fmt.Errorf("invalid OpenShift version %q: patch %q is not a number", s, parts[2])
		}
	}
	if v.Minor < Oldest.Minor || v.Minor > Newest.Minor {
		return Version{}, fmt.Errorf("OpenShift version %q is outside the supported range 4.%d–4.%d", s, Oldest.Minor, Newest.Minor)
	}
	return v, nil
}

func (v Version) String() string {
	if v.Patch < 0 {
		return fmt.Sprintf("4.%d", v.Minor)
	}
	return fmt.Sprintf("4.%d.%d", v.Minor, v.Patch)
}

// IsZero reports whether v was never set; OrNewest says what it stands for.
func (v Version) IsZero() bool { return v.Minor == 0 }

// OrNewest is v, or Newest when v was never set: for the library entry
// points (render.Render, render.DefaultPolicyInstalled), whose callers may
// leave the version zero. The tool's own runs settle the version once
// (cluster.Defaults, project.ResolveSettings) and never ask again.
func (v Version) OrNewest() Version {
	if v.IsZero() {
		return Newest
	}
	return v
}

// AtLeast reports whether v is 4.minor or later.
func (v Version) AtLeast(minor int) bool { return v.Minor >= minor }

// RefusesICSPMix reports whether MCO and the API server of this release
// refuse ImageContentSourcePolicy together with IDMS/ITMS: 4.13.0–4.13.26
// (4.13 without a patch counts as affected). 4.14 got the fix by backport in
// an early patch whose number is not recorded, so it is treated as fixed.
func (v Version) RefusesICSPMix() bool {
	return v.Minor == 13 && v.Patch <= 26
}
