package manifest

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/suggest"
)

// mirrorKinds are the kinds whose misspellings are worth keeping: the API
// server refuses them ("no matches for kind"), and without a finding the
// mirrors they hold would vanish silently.
var mirrorKinds = []Kind{KindICSP, KindIDMS, KindITMS, KindImage}

// NearMiss reports whether apiVersion and kind misspell one of the mirror
// kinds: a kind that differs from one only in case, or (for the long
// kinds) by at most two edits, or an Image under an apiVersion whose group
// misspells config.openshift.io. It returns the kind and the apiVersion
// the API server serves it under. An exact mirror kind is not a near miss
// (a wrong apiVersion on it is another mistake, see Object.Known).
func NearMiss(apiVersion, kind string) (Kind, string, bool) {
	if kind == "" {
		return "", "", false
	}
	for _, k := range mirrorKinds {
		if kind == string(k) {
			if k == KindImage && !strings.HasPrefix(apiVersion, "config.openshift.io/") && nearGroup(apiVersion, "config.openshift.io") {
				return k, k.APIVersion(), true
			}
			return "", "", false
		}
	}
	for _, k := range mirrorKinds {
		if !strings.EqualFold(kind, string(k)) && (k == KindImage || !closeSpelling(kind, string(k))) {
			continue
		}
		if k == KindImage && !nearGroup(apiVersion, "config.openshift.io") {
			// image.openshift.io and other groups have kinds of that name.
			continue
		}
		return k, k.APIVersion(), true
	}
	return "", "", false
}

// closeSpelling reports s within two edits of a long kind name, case aside.
func closeSpelling(s, kind string) bool {
	if d := len(s) - len(kind); d > 2 || d < -2 {
		return false
	}
	return suggest.Distance(strings.ToLower(s), strings.ToLower(kind)) <= 2
}

// nearGroup reports whether apiVersion's group is group or misspells it
// (case, or up to two edits).
func nearGroup(apiVersion, group string) bool {
	g, _, _ := strings.Cut(apiVersion, "/")
	if strings.EqualFold(g, group) {
		return true
	}
	if d := len(g) - len(group); d > 2 || d < -2 {
		return false
	}
	return suggest.Distance(strings.ToLower(g), group) <= 2
}
