package mco

import (
	"fmt"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// The kinds a Subject names.
const (
	KindICSP               = "ImageContentSourcePolicy"
	KindIDMS               = "ImageDigestMirrorSet"
	KindITMS               = "ImageTagMirrorSet"
	KindImage              = "Image"
	KindClusterImagePolicy = "ClusterImagePolicy"
	KindImagePolicy        = "ImagePolicy"
)

// specEntry is one source entry of an IDMS, ICSP or ITMS, flattened.
type specEntry struct {
	source  string
	mirrors []string
	policy  configv1.MirrorSourcePolicy
	tag     bool
	at      origin
}

func (e *specEntry) subject(field string) Subject {
	return Subject{Kind: e.at.kind, Index: e.at.index, Path: e.at.path + field}
}

// indexedScope is an Image list value with its position in that list.
type indexedScope struct {
	scope string
	index int
}

func scopeStrings(l []indexedScope) []string {
	if l == nil {
		return nil
	}
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = s.scope
	}
	return out
}

func imageSubject(list string, i int) Subject {
	return Subject{Kind: KindImage, Index: 0, Path: fmt.Sprintf("spec.registrySources.%s[%d]", list, i)}
}

// validateScopes checks Image list entries the way MCO does before it edits
// registries.conf (insecure, blocked) or policy.json (blocked, allowed).
func validateScopes(list, what string, entries []indexedScope) *Refusal {
	for _, s := range entries {
		if !scopes.ValidScope(s.scope) {
			return &Refusal{
				Reason:  fmt.Sprintf("invalid entry for %s registries %q", what, s.scope),
				Subject: imageSubject(list, s.index),
			}
		}
	}
	return nil
}

// validateEntries checks the mirror entries in MCO's order (IDMS, ICSP,
// ITMS, each sorted by name) and returns the first problem. The checks
// depend on the release:
//   - 4.16+: source and mirror must match the CRD patterns (ICSP included);
//   - up to 4.15: only empty values and any "*" are refused;
//   - everywhere: one effective policy per source across all kinds (empty
//     and ICSP count as AllowContactingSource; entries without mirrors
//     count too, since this runs before they are dropped), and a
//     NeverContactSource entry may not list its own source as a mirror.
func validateEntries(entries []specEntry, v Version) *Refusal {
	policies := make(map[string]configv1.MirrorSourcePolicy, len(entries))
	for i := range entries {
		e := &entries[i]
		if v.AtLeast(16) {
			if !scopes.ValidSource(e.source) {
				return &Refusal{Reason: fmt.Sprintf("invalid format for source %q", e.source), Subject: e.subject(".source")}
			}
		} else {
			if e.source == "" {
				return &Refusal{Reason: "invalid empty entry for source configuration", Subject: e.subject(".source")}
			}
			if strings.Contains(e.source, "*") {
				return &Refusal{Reason: fmt.Sprintf("wildcard entries are not supported with mirror configuration %q", e.source), Subject: e.subject(".source")}
			}
		}
		policy := e.policy
		if policy == "" {
			policy = configv1.AllowContactingSource
		}
		if p, ok := policies[e.source]; !ok {
			policies[e.source] = policy
		} else if p != policy {
			field := ".source"
			if e.policy != "" {
				field = ".mirrorSourcePolicy"
			}
			return &Refusal{Reason: conflictMessage(e.source, v), Subject: e.subject(field)}
		}
		for k, m := range e.mirrors {
			field := fmt.Sprintf(".mirrors[%d]", k)
			if v.AtLeast(16) {
				if !scopes.ValidMirror(m) {
					return &Refusal{Reason: fmt.Sprintf("invalid format for mirror %q", m), Subject: e.subject(field)}
				}
			} else {
				if m == "" {
					return &Refusal{Reason: "invalid empty entry for mirror configuration", Subject: e.subject(field)}
				}
				if strings.Contains(m, "*") {
					return &Refusal{Reason: fmt.Sprintf("wildcard entries are not supported with mirror configuration %q", m), Subject: e.subject(field)}
				}
			}
			if policy == configv1.NeverContactSource && m == e.source {
				return &Refusal{
					Reason:  fmt.Sprintf("cannot set mirrorSourcePolicy: NeverContactSource if the source %q is one of the mirrors", e.source),
					Subject: e.subject(field),
				}
			}
		}
	}
	return nil
}

// conflictMessage names the kinds the way the release's MCO did: 4.13 and
// 4.14 did not mention ImageContentSourcePolicy yet.
func conflictMessage(source string, v Version) string {
	if v.Minor <= 14 {
		return fmt.Sprintf("conflicting mirrorSourcePolicy is set for the same source %q in imagedigestmirrorsets and/or imagetagmirrorsets", source)
	}
	return fmt.Sprintf("conflicting mirrorSourcePolicy is set for the same source %q in imagedigestmirrorsets, imagetagmirrorsets, or imagecontentsourcepolicies", source)
}
