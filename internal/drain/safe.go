package drain

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/containers/image/v5/pkg/sysregistriesv2"
)

// registriesChanges compares two registries.conf files the way the MCD's
// safety check does, on the toml-decoded structs, but keeps going after the
// first unsafe change so that every reason is reported. The MCD drains iff
// at least one returned Reason has Drain set.
//
// Safe: appending unqualified-search registries; a new scope whose mirrors
// (at least one) are all digest-only; on an existing scope, adding
// digest-only mirrors, reordering mirrors, changing a mirror's insecure
// flag, or switching a mirror to digest-only. Anything else drains: a scope
// removed, its prefix/location/blocked/insecure changed, a mirror removed,
// a mirror switched to anything but digest-only, a new non-digest-only
// mirror, a new scope without mirrors.
//
// The configurations are render's own (Output.Config), which equal what a
// toml decode of the rendered bytes gives, but for empty mirror lists: byScope
// treats an empty list and none alike, as the decoded files do.
func registriesChanges(oldConf, newConf sysregistriesv2.V2RegistriesConf) []Reason {
	var out []Reason
	add := func(scope, field, mirror string, drain bool, format string, args ...any) {
		out = append(out, Reason{File: RegistriesConfPath, Scope: scope, Field: field, Mirror: mirror, Drain: drain, Message: fmt.Sprintf(format, args...)})
	}

	oldSearch, newSearch := oldConf.UnqualifiedSearchRegistries, newConf.UnqualifiedSearchRegistries
	switch {
	case len(oldSearch) > len(newSearch):
		add("", FieldSearch, "", true, "unqualified-search-registries lost entries: %q became %q", oldSearch, newSearch)
	default:
		for i, s := range oldSearch {
			if newSearch[i] != s {
				add("", FieldSearch, "", true, "unqualified-search-registries no longer start with %q in the same order (now %q)", oldSearch, newSearch)
				break
			}
		}
		if len(newSearch) > len(oldSearch) && len(out) == 0 {
			add("", FieldSearch, "", false, "unqualified-search-registries appended %q", newSearch[len(oldSearch):])
		}
	}

	oldRegs, newRegs := byScope(oldConf.Registries), byScope(newConf.Registries)
	for _, scope := range slices.Sorted(maps.Keys(oldRegs)) {
		if _, ok := newRegs[scope]; !ok {
			add(scope, FieldScopeRemoved, "", true, "registry %s removed", scope)
		}
	}
	for _, scope := range slices.Sorted(maps.Keys(newRegs)) {
		nr := newRegs[scope]
		or, existed := oldRegs[scope]
		if !existed {
			switch {
			case len(nr.Mirrors) == 0 && !nr.MirrorByDigestOnly:
				add(scope, FieldScopeAdded, "", true, "registry %s added without mirrors (an insecure or blocked scope)", scope)
			case !allDigestOnly(nr):
				for _, m := range nr.Mirrors {
					if m.PullFromMirror != sysregistriesv2.MirrorByDigestOnly {
						add(scope, FieldScopeAdded, m.Location, true, "registry %s added with mirror %s pull-from-mirror %q, not digest-only", scope, m.Location, m.PullFromMirror)
					}
				}
			default:
				add(scope, FieldScopeAdded, "", false, "registry %s added with digest-only mirrors", scope)
			}
			continue
		}
		if reflect.DeepEqual(or, nr) {
			continue
		}
		before := len(out)
		if or.Prefix != nr.Prefix {
			add(scope, FieldPrefix, "", true, "registry %s: prefix changed from %q to %q", scope, or.Prefix, nr.Prefix)
		}
		if or.Location != nr.Location {
			add(scope, FieldLocation, "", true, "registry %s: location changed from %q to %q", scope, or.Location, nr.Location)
		}
		if or.Blocked != nr.Blocked {
			add(scope, FieldBlocked, "", true, "registry %s: blocked changed from %t to %t", scope, or.Blocked, nr.Blocked)
		}
		if or.Insecure != nr.Insecure {
			add(scope, FieldInsecure, "", true, "registry %s: insecure changed from %t to %t", scope, or.Insecure, nr.Insecure)
		}
		oldM, newM := firstByLocation(or.Mirrors), firstByLocation(nr.Mirrors)
		for _, m := range or.Mirrors {
			if _, ok := newM[m.Location]; !ok {
				add(scope, FieldMirrorRemoved, m.Location, true, "registry %s: mirror %s removed", scope, m.Location)
			}
		}
		for _, m := range nr.Mirrors {
			if om, ok := oldM[m.Location]; ok {
				if m.PullFromMirror != om.PullFromMirror {
					switch {
					case m.PullFromMirror != sysregistriesv2.MirrorByDigestOnly && listed(or.Mirrors, m):
						// The old file lists this very mirror too, after a
						// mirror of the same location (an IDMS and an ITMS
						// sharing it): only the daemon's first-match lookup
						// makes it a change.
						add(scope, FieldPullFromMirror, m.Location, true, "registry %s: mirror %s pull-from-mirror %q is unchanged, but the daemon compares it with the first %s of the old file, %q, and drains (an MCD quirk: it matches mirrors by location only)",
							scope, m.Location, m.PullFromMirror, m.Location, om.PullFromMirror)
					case m.PullFromMirror != sysregistriesv2.MirrorByDigestOnly:
						add(scope, FieldPullFromMirror, m.Location, true, "registry %s: mirror %s pull-from-mirror changed from %q to %q", scope, m.Location, om.PullFromMirror, m.PullFromMirror)
					default:
						add(scope, FieldPullFromMirror, m.Location, false, "registry %s: mirror %s pull-from-mirror changed from %q to digest-only", scope, m.Location, om.PullFromMirror)
					}
				}
				continue
			}
			if m.PullFromMirror != sysregistriesv2.MirrorByDigestOnly && !nr.MirrorByDigestOnly {
				add(scope, FieldMirrorAdded, m.Location, true, "registry %s: mirror %s added with pull-from-mirror %q, not digest-only", scope, m.Location, m.PullFromMirror)
			} else {
				add(scope, FieldMirrorAdded, m.Location, false, "registry %s: digest-only mirror %s added", scope, m.Location)
			}
		}
		if len(out) == before {
			add(scope, FieldMirrors, "", false, "registry %s: mirrors reordered or mirror flags changed", scope)
		}
	}
	return out
}

// byScope indexes registries by prefix, else location; a later duplicate
// replaces an earlier one, as in the daemon.
func byScope(regs []sysregistriesv2.Registry) map[string]sysregistriesv2.Registry {
	m := make(map[string]sysregistriesv2.Registry, len(regs))
	for _, r := range regs {
		scope := r.Location
		if r.Prefix != "" {
			scope = r.Prefix
		}
		if len(r.Mirrors) == 0 {
			r.Mirrors = nil // as decoded: an empty list is no list
		}
		m[scope] = r
	}
	return m
}

// listed reports whether ms holds a mirror of e's location with e's
// pull-from-mirror.
func listed(ms []sysregistriesv2.Endpoint, e sysregistriesv2.Endpoint) bool {
	for _, m := range ms {
		if m.Location == e.Location && m.PullFromMirror == e.PullFromMirror {
			return true
		}
	}
	return false
}

// firstByLocation maps each mirror location to its first occurrence: the
// daemon's lookups stop at the first match, which matters when a location
// is listed twice (digest-only and tag-only).
func firstByLocation(ms []sysregistriesv2.Endpoint) map[string]sysregistriesv2.Endpoint {
	m := make(map[string]sysregistriesv2.Endpoint, len(ms))
	for _, e := range ms {
		if _, ok := m[e.Location]; !ok {
			m[e.Location] = e
		}
	}
	return m
}

func allDigestOnly(r sysregistriesv2.Registry) bool {
	if len(r.Mirrors) == 0 {
		return r.MirrorByDigestOnly
	}
	for _, m := range r.Mirrors {
		if m.PullFromMirror != sysregistriesv2.MirrorByDigestOnly {
			return false
		}
	}
	return true
}
