package inputs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/sites"
	"github.com/mirrorlint/mirrorlint/render"
)

// A spoke's install-config holds its mirrors under the key assisted-service
// writes for the spoke's release (spokeKey): imageDigestSources from 4.14,
// imageContentSources before. The overrides are decoded over that list;
// the other key, when the overrides write it, is decoded over nothing, and
// openshift-install then reads it or not by its release.

// overrideLists decodes the overrides' mirror lists over base (under
// spokeKey(v)) and returns the list the installer of release v writes the
// spoke's mirror objects from, with its key; refused is true when
// assisted-service or the installer refuses the result.
func overrideLists(fs *findings, ov *sites.Overrides, base []spokeSource, b spokeBase, v render.Version) (list []spokeSource, listKey string, refused bool) {
	key := spokeKey(v)
	list, listKey = base, key
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(ov.Text), &top); err != nil {
		return list, key, false
	}
	strict := func(k string, into *[]spokeSource) bool {
		raw, ok := top[k]
		if !ok {
			return true
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(into); err != nil {
			pos := ov.Key
			if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
				pos = keyPos(ov, findField(ov, k, m[1]))
			}
			fs.add(pos, check.Error, RuleOverridesUnknown, assisted,
				"%s.%s: %v: %s; assisted-service's install-config has no such field (sourcePolicy: set mirrorSourcePolicy in an ImageDigestMirrorSet extra manifest)", ov.Field, k, err, annotationRefused)
			return false
		}
		return true
	}
	if _, ok := top[key]; ok {
		decoded := append([]spokeSource(nil), base...)
		if !strict(key, &decoded) {
			return nil, key, true
		}
		checkSpokeEntries(fs, ov, decoded, key, len(base), b)
		list = decoded
	}
	other := keyContent
	if key == keyContent {
		other = keyDigest
	}
	if _, ok := top[other]; !ok {
		return list, key, false
	}
	var extra []spokeSource
	if !strict(other, &extra) {
		return nil, key, true
	}
	switch {
	case len(extra) == 0:
		// Both lists are omitempty: assisted-service writes no such key.
	case other == keyDigest:
		droppedDigestSources(fs, ov, extra, v)
	case len(list) > 0:
		fs.add(keyPos(ov, ov.Locate(keyContent, true)), check.Error, RuleInstallBothLists, installer,
			"%s.imageContentSources with the imageDigestSources assisted-service generates from the %s (4.14+): openshift-install refuses: cannot set imageContentSources and imageDigestSources at the same time; write imageDigestSources instead", ov.Field, b.from)
		return nil, key, true
	default:
		// No imageDigestSources at all: a 4.14 or later installer reads
		// these instead, and warns.
		for i, e := range extra {
			ds := DigestSource{Source: e.Source, Mirrors: e.Mirrors, Path: manifest.Path{keyContent, i}}
			checkNames(fs, placesIn(ov), ds, keyContent, installer, ov.Field+".")
		}
		fs.add(keyPos(ov, ov.Locate(keyContent, true)), check.Warning, RuleInstallDeprecated, installer,
			"%s.imageContentSources: imageContentSources is deprecated, please use ImageDigestSources (%s warns): rename the key to imageDigestSources, the entries keep their form", ov.Field, installer)
		return extra, keyContent, false
	}
	return list, key, false
}

// droppedDigestSources reports an overrides' imageDigestSources on a spoke
// whose installer predates them: assisted-service writes the list beside
// its imageContentSources, and openshift-install of release v warns and
// drops it (see contentsources.go).
func droppedDigestSources(fs *findings, ov *sites.Overrides, extra []spokeSource, v render.Version) {
	var sources []string
	for _, e := range extra {
		sources = append(sources, e.Source)
	}
	verb := "gets"
	if len(sources) > 1 {
		verb = "get"
	}
	fs.add(keyPos(ov, ov.Locate(keyDigest, true)), check.Warning, RuleInstallUnknownField, installer,
		"%s.imageDigestSources is not read by openshift-install %s (the field exists from 4.%d): it warns %q and drops the list, so %s %s no mirror from it on this spoke; "+
			"before 4.%d assisted-service gives a spoke its mirrors as imageContentSources: write the entries there (source, mirrors)",
		ov.Field, v, digestSourcesSince, unknownFieldWarning(v), strings.Join(sources, ", "), verb, digestSourcesSince)
}

// placeEntries places the entries of list (under key in the install-config
// the overrides ov, nil when none, are decoded into): an entry the
// overrides write at its own values, what it leaves out at the inherited
// entry of the same index, an entry they do not touch at the inherited
// one.
func placeEntries(ov *sites.Overrides, list []spokeSource, key string, inherited []DigestSource) []DigestSource {
	var entries []DigestSource
	for i, e := range list {
		ds := DigestSource{Source: e.Source, Mirrors: e.Mirrors, MirrorsSet: true}
		entry := fmt.Sprintf("%s[%d]", key, i)
		var h *DigestSource
		if i < len(inherited) {
			h = &inherited[i]
		}
		switch {
		case ov != nil && ov.Has(entry):
			ds.At, ds.SourceAt = ov.Locate(entry, false), ov.Locate(entry+".source", false)
			if h != nil && !ov.Has(entry+".source") {
				ds.SourceAt = h.SourceAt
			}
			if h != nil && !ov.Has(entry+".mirrors") {
				ds.MirrorAt = h.MirrorAt
				break
			}
			for j := range e.Mirrors {
				ds.MirrorAt = append(ds.MirrorAt, ov.Locate(fmt.Sprintf("%s.mirrors[%d]", entry, j), false))
			}
		case h != nil:
			ds.At, ds.SourceAt, ds.MirrorAt = h.At, h.SourceAt, h.MirrorAt
		}
		entries = append(entries, ds)
	}
	return entries
}

// install adds what openshift-install of the spoke's release writes from
// entries, the install-config's list key: the IDMS image-digest-mirror of
// imageDigestSources, the ICSPs of imageContentSources, and the bootstrap
// node's registries.conf. The objects' own fields sit at the spoke's
// declaration, or at the overrides' key when the list is theirs alone.
func (c *Cluster) install(entries []DigestSource, key string, at manifest.Position) {
	c.Bootstrap = bootstrapConf(entries, c.Version)
	switch {
	case len(entries) == 0:
	case key == keyDigest:
		c.IDMSs = append(c.IDMSs, installerIDMS(entries))
		c.derive([][]DigestSource{entries})
	default:
		icsps, groups := installerICSPs(entries, c.Version)
		c.ICSPs = append(c.ICSPs, icsps...)
		c.deriveICSPs(icsps, groups, at)
	}
}

var unknownField = regexp.MustCompile(`unknown field "([^"]*)"`)

// findField finds the first entry of list key holding field.
func findField(ov *sites.Overrides, key, field string) manifest.Position {
	for i := 0; ov.Has(fmt.Sprintf("%s[%d]", key, i)); i++ {
		if p := fmt.Sprintf("%s[%d].%s", key, i, field); ov.Has(p) {
			return ov.Locate(p, true)
		}
	}
	return ov.Locate(key, true)
}

// checkSpokeEntries reports what the override does to the base's list
// (under key): entries dropped, entries inheriting the base entry's
// mirrors at their index, names the installer refuses.
func checkSpokeEntries(fs *findings, ov *sites.Overrides, decoded []spokeSource, key string, nBase int, b spokeBase) {
	kept := map[string]bool{}
	for _, e := range decoded {
		kept[e.Source] = true
	}
	var lost []string
	for _, h := range b.entries {
		if !kept[h.Source] {
			lost = append(lost, h.Source)
		}
	}
	switch {
	case len(decoded) == 0 && len(b.entries) > 0:
		fs.add(keyPos(ov, ov.Locate(key, true)), check.Warning, RuleOverridesReplaces, assisted,
			"%s.%s is empty: it drops every %s mirror for this spoke, which then pulls from the sources; delete the key to keep the %s's mirrors", ov.Field, key, b.from, b.from)
	case len(lost) > 0:
		noun := "is"
		if len(lost) > 1 {
			noun = "are"
		}
		fs.add(keyPos(ov, ov.Locate(key, true)), check.Warning, RuleOverridesReplaces, assisted,
			"%s.%s replaces the %s mirrors for this spoke: %s %s no longer mirrored; list every source the spoke needs, the %s's included", ov.Field, key, b.from, strings.Join(lost, ", "), noun, b.from)
	}
	for i, e := range decoded {
		entry := fmt.Sprintf("%s[%d]", key, i)
		if i < nBase && !ov.Has(entry+".mirrors") {
			fs.add(keyPos(ov, ov.Locate(entry, false)), check.Warning, RuleOverridesInherits, assisted,
				"%s.%s has no mirrors: assisted-service decodes it over the %s's entry %d, so %s gets that entry's mirrors (%s); write the mirrors out", ov.Field, entry, b.from, i, e.Source, strings.Join(e.Mirrors, ", "))
		}
		if i < nBase && !ov.Has(entry+".source") {
			fs.add(keyPos(ov, ov.Locate(entry, false)), check.Warning, RuleOverridesInherits, assisted,
				"%s.%s has no source: it keeps the %s entry %d's source %s; write the source out", ov.Field, entry, b.from, i, e.Source)
		}
		ds := DigestSource{Source: e.Source, Mirrors: e.Mirrors, Path: manifest.Path{key, i}}
		checkNames(fs, placesIn(ov), ds, key, installer, ov.Field+".")
		if key == keyDigest && ov.Has(entry+".mirrors") {
			// Mirrors the entry inherits are the base file's to repeat;
			// an ICSP's mirrors are no set, and mirror-duplicate reports
			// a repeat on the ICSP made from it.
			checkDuplicates(fs, ov, ds)
		}
	}
}

// checkDuplicates reports a mirror the override lists twice in entry ds
// as the install-config rule does, in the override's words, on the key's
// line and at the repeat inside the JSON: mirror-duplicate on the IDMS
// made from it, placed there, says the same of the same value.
func checkDuplicates(fs *findings, ov *sites.Overrides, ds DigestSource) {
	for _, j := range repeatedMirrors(ds) {
		p := ds.Path.Child("mirrors", j)
		fs.addAt(placesIn(ov)(p), check.Error, RuleInstallDuplicate, "kube-apiserver",
			"%s.%s: duplicate mirror %q for %s: %s", ov.Field, p, ds.Mirrors[j], ds.Source, duplicateRefused)
	}
}
