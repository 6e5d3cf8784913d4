package rules

import (
	"strings"

	"github.com/containers/image/v5/docker/reference"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// imageLists are the Image/cluster registry lists as MCO uses them after its
// payload rule (which needs --release-image): a blocked entry containing the
// release repository is dropped when the payload has no usable digest
// mirror, and when MCO's own check of that fails (its scratch
// registries.conf cannot be built because a wildcard source encloses a
// mirrorless scope) MCO drops every blocked and allowed entry and validates
// none of them.
type imageLists struct {
	img      *manifest.Object
	insecure scopeList
	blocked  []int // indexes into the written blockedRegistries that MCO keeps
	// discarded is set when MCO ignores blocked and allowed entirely.
	discarded bool
	written   scopeList // blockedRegistries as written
	allowed   scopeList
}

func effectiveImageLists(c *check.Context) *imageLists {
	img, spec := imageCluster(c)
	if img == nil {
		return nil
	}
	rs := spec.RegistrySources
	l := &imageLists{
		img:      img,
		insecure: scopeList{"insecureRegistries", rs.InsecureRegistries},
		written:  scopeList{"blockedRegistries", rs.BlockedRegistries},
		allowed:  scopeList{"allowedRegistries", rs.AllowedRegistries},
	}
	var payload string
	if ri := c.Settings.ReleaseImage; ri != "" {
		if ref, err := reference.ParseNamed(ri); err == nil {
			payload = ref.Name()
		}
	}
	var pm *payloadMirrors
	for i, b := range rs.BlockedRegistries {
		if payload == "" || !scopes.IsNested(payload, b) {
			l.blocked = append(l.blocked, i)
			continue
		}
		if pm == nil {
			pm = newPayloadMirrors(c)
			if pm.scratchFails(c, rs.InsecureRegistries, rs.BlockedRegistries) {
				return &imageLists{img: img, insecure: l.insecure, written: l.written, allowed: l.allowed, discarded: true}
			}
		}
		if pm.usable(payload) {
			l.blocked = append(l.blocked, i)
		}
	}
	return l
}

// blockedValues returns the kept blocked scopes.
func (l *imageLists) blockedValues() []string {
	out := make([]string, len(l.blocked))
	for k, i := range l.blocked {
		out[k] = l.written.values[i]
	}
	return out
}

// scratchFails reports whether MCO's scratch registries.conf for the payload
// check (Image scopes plus digest sets, no tag sets) cannot be built or is
// rejected by containers/image: a mirrorless scope whose first enclosing
// digest source is a wildcard, an empty scope, a malformed wildcard, a URL
// scheme, an empty mirror, or one location with conflicting flags.
func (m *payloadMirrors) scratchFails(c *check.Context, insecure, blocked []string) bool {
	for _, l := range [][]string{blocked, insecure} {
		for _, scope := range l {
			if strings.TrimRight(scope, "/") == "" || hasScheme(scope) || (strings.HasPrefix(scope, "*.") && !scopes.ValidScope(scope)) {
				return true
			}
		}
	}
	digestOnly := &sets{digest: m.sets.digest, tag: map[string]*mirrorSet{}}
	for _, set := range m.sets.all {
		if set.tag {
			continue
		}
		digestOnly.all = append(digestOnly.all, set)
		if hasScheme(set.source) {
			return true
		}
		for _, mirror := range set.merged() {
			if hasScheme(mirror) || strings.TrimRight(mirror, "/") == "" {
				return true
			}
		}
	}
	if conflictingLocations(registryEntries(c, digestOnly)) {
		return true
	}
	first := map[string]int{}
	for i, set := range m.sets.all {
		if set.tag {
			continue
		}
		if _, ok := first[set.source]; !ok {
			first[set.source] = i
		}
	}
	for _, l := range [][]string{blocked, insecure} {
		for _, scope := range l {
			if _, ok := first[scope]; ok {
				continue
			}
			best := -1
			for _, cand := range enclosing(scope, true) {
				if k, ok := first[cand]; ok && (best < 0 || k < best) {
					best = k
				}
			}
			if best >= 0 && scopes.IsWildcard(m.sets.all[best].source) {
				return true
			}
		}
	}
	return false
}

// hasScheme reports an http:// or https:// prefix, which containers/image
// refuses in any location.
func hasScheme(s string) bool {
	t := strings.TrimRight(s, "/")
	return strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://")
}

// conflictingLocations reports two entries that containers/image sees as
// one location with different insecure or blocked flags.
func conflictingLocations(entries []*regEntry) bool {
	byTrim := map[string]*regEntry{}
	for _, e := range entries {
		t := strings.TrimRight(e.scope, "/")
		if first, ok := byTrim[t]; ok {
			if first.insecure != e.insecure || first.blocked != e.blocked {
				return true
			}
			continue
		}
		byTrim[t] = e
	}
	return false
}
