package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/containers/image/v5/docker/reference"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var payloadBlocked = &check.Rule{
	ID:       "payload-blocked",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A blocked registry contains the release payload: MCO silently skips it, or nodes cannot pull the payload.",
	Doc:      doc("payload-blocked"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		ri := c.Settings.ReleaseImage
		img, spec := imageCluster(c.Context)
		if ri == "" || img == nil || len(spec.RegistrySources.BlockedRegistries) == 0 {
			return
		}
		ref, err := reference.ParseNamed(ri)
		if err != nil {
			return // release-image-invalid
		}
		payload := ref.Name()
		artDev := "quay.io/openshift-release-dev/ocp-v4.0-art-dev"
		if path.Base(payload) == "ocp-release" {
			artDev = path.Dir(payload) + "/ocp-v4.0-art-dev"
		}
		m := newPayloadMirrors(c.Context)
		blocked := scopeList{"blockedRegistries", spec.RegistrySources.BlockedRegistries}
		payloadOK, artOK := m.usable(payload), m.usable(artDev)
		var skipped []string
		var skippedAt []int
		for i, b := range blocked.values {
			switch {
			case scopes.IsNested(payload, b):
				if !payloadOK {
					skipped = append(skipped, b)
					skippedAt = append(skippedAt, i)
				}
			case scopes.IsNested(artDev, b) && !artOK:
				c.Report(img, blocked.path(i),
					"%q blocks the payload's component repository %s, which has no digest mirror outside the blocked scopes; MCO only protects the release repository, so nodes cannot pull the release payload's images (add an ImageDigestMirrorSet for it)", b, artDev)
			}
		}
		for k, i := range skippedAt {
			c.Report(img, blocked.path(i),
				"error adding %s to blocked registries, cannot block the repository being used by the payload, skipping: MCO silently drops %q from registries.conf and policy.json because the release repository %s has no digest mirror outside the blocked scopes, so it stays reachable",
				fmt.Sprintf("%q", skipped), skipped[k], payload)
		}
	},
}

// payloadMirrors answers "can a by-digest pull of this repository be served
// by a mirror outside every blocked scope", approximating what MCO asks
// containers/image: the most specific registries.conf entry for the
// repository decides; an Image scope without mirrors of its own uses the
// mirrors MCO copies from the first enclosing source.
type payloadMirrors struct {
	sets    *sets
	first   map[string]int // source -> processing index
	scopes  scopeSet       // Image blocked and insecure scopes
	blocked scopeSet
}

func newPayloadMirrors(c *check.Context) *payloadMirrors {
	s := collectSets(mirrorEntries(c))
	m := &payloadMirrors{sets: s, first: map[string]int{}}
	for i, set := range s.all {
		if _, ok := m.first[set.source]; !ok {
			m.first[set.source] = i
		}
	}
	if _, spec := imageCluster(c); spec != nil {
		rs := spec.RegistrySources
		m.blocked = newScopeSet(rs.BlockedRegistries)
		m.scopes = m.blocked.with(rs.InsecureRegistries)
	}
	return m
}

func (m *payloadMirrors) usable(repo string) bool {
	for _, cand := range enclosing(repo, false) {
		if set, ok := m.sets.digest[cand]; ok {
			return m.anyUnblocked(set, repo)
		}
		if _, ok := m.sets.tag[cand]; ok {
			return false // tag-only mirrors do not serve a digest pull
		}
		if m.scopes[cand] {
			// A mirrorless entry: MCO copies from the first enclosing set.
			best := -1
			for _, up := range enclosing(cand, true) {
				if k, ok := m.first[up]; ok && (best < 0 || k < best) {
					best = k
				}
			}
			if best < 0 || m.sets.all[best].tag || scopes.IsWildcard(m.sets.all[best].source) {
				return false
			}
			return m.anyUnblocked(m.sets.all[best], repo)
		}
	}
	return false
}

func (m *payloadMirrors) anyUnblocked(set *mirrorSet, repo string) bool {
	suffix := ""
	if !scopes.IsWildcard(set.source) {
		suffix = strings.TrimPrefix(repo, set.source)
	}
	for _, mirror := range set.merged() {
		if !m.blocked.encloses(mirror + suffix) {
			return true
		}
	}
	return false
}
