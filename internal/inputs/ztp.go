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

// Rule ids of the installConfigOverrides checks.
const (
	RuleOverridesJSON      = "install-config-overrides-json"
	RuleOverridesUnknown   = "install-config-overrides-unknown-field"
	RuleOverridesValueType = "install-config-overrides-value-type"
	RuleOverridesReplaces  = "install-config-overrides-replaces-hub-mirrors"
	RuleOverridesInherits  = "install-config-overrides-inherits-mirrors"
)

// spokeSource is assisted-service's installcfg.ImageDigestSource (and
// ImageContentSource): no sourcePolicy, so a strict decode refuses one.
type spokeSource struct {
	Source  string   `json:"source"`
	Mirrors []string `json:"mirrors,omitempty"`
}

// spokeBase is the list assisted-service decodes a spoke's overrides
// over: the digest entries of the registries.conf it gives the spoke (the
// hub's, or an AgentClusterInstall's mirrorRegistryRef's), with the name
// messages give that file.
type spokeBase struct {
	entries []DigestSource
	from    string // "hub", "mirrorRegistryRef"
}

// hubBase is the base the hub h gives its spokes: none without a hub or
// with a file assisted-service does not read.
func hubBase(h *HubMirrors) spokeBase {
	b := spokeBase{from: "hub"}
	if h != nil && h.Err == "" {
		b.entries = h.Digest
	}
	return b
}

// releases is what spokes' releases are read from: the tree's
// ClusterImageSets, and the release assumed for a spoke whose inputs name
// none (zero: the newest behaviour).
type releases struct {
	sets    []*manifest.Object
	assumed render.Version
}

// spoke is what one ZTP site gets: the base's digest entries, with the
// site's overrides decoded over them, checked as the release it names.
// Its Inputs hold the ClusterImageSet it names when the tree has it; the
// caller adds the site and the hub objects.
func spoke(s *sites.Site, b spokeBase, rel releases) (*Cluster, []Finding) {
	var fs findings
	c := &Cluster{Name: s.Name, Kind: "ztp-spoke", From: s.Object.Locate(s.Path), Version: rel.assumed}
	r := releaseOf(s, rel.sets)
	if r.set != nil {
		c.Inputs = []*manifest.Object{r.set}
	}
	if !r.v.IsZero() {
		var ok bool
		if c.Version, ok = modelled(r.v); !ok {
			releaseNote(&fs, r.v, r.at, r.from)
			fs[len(fs)-1].OfSpoke = true
		}
	}
	var base []spokeSource
	baseEntries := b.entries
	for _, d := range baseEntries {
		base = append(base, spokeSource{Source: d.Source, Mirrors: append([]string(nil), d.Mirrors...)})
	}
	list := base
	if ov := s.Overrides; ov != nil {
		var refused bool
		list, refused = overrides(&fs, s, ov, base, b)
		if refused {
			c.Refused = true
			return c, fs
		}
	}
	var entries []DigestSource
	for i, e := range list {
		ds := DigestSource{Source: e.Source, Mirrors: e.Mirrors, MirrorsSet: true}
		ov := s.Overrides
		entry := fmt.Sprintf("imageDigestSources[%d]", i)
		var h *DigestSource
		if i < len(baseEntries) {
			h = &baseEntries[i]
		}
		switch {
		case ov != nil && ov.Has(entry):
			// What the entry leaves out it keeps from the base entry,
			// and is placed where that is written.
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
	if len(entries) > 0 {
		c.IDMSs = append(c.IDMSs, installerIDMS(entries))
	}
	c.Bootstrap = bootstrapConf(entries, c.Version)
	c.derive([][]DigestSource{entries})
	return c, fs
}

// keyPos is where a finding about the JSON goes: the
// installConfigOverrides key's line, at the finer column when the JSON
// value sits on that line.
func keyPos(ov *sites.Overrides, fine manifest.Position) manifest.Position {
	if fine.Line == ov.Key.Line && fine.File == ov.Key.File {
		return fine
	}
	return ov.Key
}

// placeIn is where a finding about the JSON value at p goes (keyPos),
// with the value's own place beside it when that is elsewhere: a rule
// covering what the spoke's mirror objects would repeat about the value
// drops those findings there.
func placeIn(ov *sites.Overrides, p manifest.Path) place {
	fine := ov.Locate(p.String(), false)
	pl := place{pos: keyPos(ov, fine)}
	if pl.pos != fine {
		pl.at = fine
	}
	return pl
}

// overrides checks the site's JSON as the siteconfig webhook or generator
// and assisted-service read it (an AgentClusterInstall's annotation as
// assisted-service alone reads it) and returns the spoke's mirror list;
// refused is true when a component refuses the site.
func overrides(fs *findings, s *sites.Site, ov *sites.Overrides, base []spokeSource, b spokeBase) (list []spokeSource, refused bool) {
	list = base
	if ov.SyntaxError != nil {
		switch s.Kind {
		case sites.KindClusterInstance:
			fs.add(keyPos(ov, ov.SyntaxPos), check.Error, RuleOverridesJSON, "siteconfig webhook",
				"installConfigOverrides is not valid JSON (%v): the siteconfig webhook refuses the ClusterInstance: invalid JSON field(s): installConfigOverrides is not a valid JSON-formatted string", ov.SyntaxError)
		case sites.KindAgentClusterInstall:
			fs.add(keyPos(ov, ov.SyntaxPos), check.Error, RuleOverridesJSON, assisted,
				"%s is not valid JSON (%v): %s", ov.Field, ov.SyntaxError, annotationRefused)
		default:
			fs.add(keyPos(ov, ov.SyntaxPos), check.Error, RuleOverridesJSON, "siteconfig-generator",
				"installConfigOverrides is not valid JSON (%v): the siteconfig-generator fails: Invalid json parameter set at installConfigOverride", ov.SyntaxError)
		}
		return nil, true
	}
	// assisted-service decodes the annotation, whose keys the generator
	// may have sorted (a document with networking is re-encoded), so that
	// is what is walked below; its paths are the document's.
	doc, err := ov.Annotation()
	if err != nil {
		if s.Kind == sites.KindClusterInstance {
			fs.add(ov.Key, check.Error, RuleOverridesJSON, "siteconfig operator",
				"installConfigOverrides cannot be merged with networkType (%v): the SiteConfig operator then renders the AgentClusterInstall without the install-config-overrides annotation, so none of these overrides apply; write a JSON object", err)
			return list, false
		}
		fs.add(ov.Key, check.Error, RuleOverridesJSON, "siteconfig-generator",
			"installConfigOverrides cannot be merged with networkType: the siteconfig-generator fails: %v; write a JSON object", err)
		return nil, true
	}
	// assisted-service decodes the whole document strictly, not only its
	// mirror lists: the first key its install-config type lacks, or the
	// first value of the wrong type, refuses the annotation.
	if e, ok := firstDecodeError(doc, assistedInstallConfig); ok {
		var at manifest.Position
		if e.Key != "" {
			hint := "check the key's spelling and place, or set it in an extra manifest instead"
			if e.Key == "sourcePolicy" {
				hint = "sourcePolicy: set mirrorSourcePolicy in an ImageDigestMirrorSet extra manifest"
			}
			at = ov.Locate(e.At.Child(e.Key).String(), true)
			fs.add(keyPos(ov, at), check.Error, RuleOverridesUnknown, assisted,
				"%s: %s: %s; assisted-service's install-config has no such field (%s)", inside(ov, e.At), e.Message, annotationRefused, hint)
		} else {
			at = ov.Locate(e.At.String(), true)
			fs.add(keyPos(ov, at), check.Error, RuleOverridesValueType, assisted,
				"%s: %s: %s; write %s", inside(ov, e.At), e.Message, annotationRefused, e.Want)
		}
		if f := &(*fs)[len(*fs)-1]; f.Pos != at {
			f.At = at
		}
		return nil, true
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(ov.Text), &top); err != nil {
		return list, false
	}
	strict := func(key string, into *[]spokeSource) bool {
		raw, ok := top[key]
		if !ok {
			return true
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(into); err != nil {
			pos := ov.Key
			if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
				pos = keyPos(ov, findField(ov, key, m[1]))
			}
			fs.add(pos, check.Error, RuleOverridesUnknown, assisted,
				"%s.%s: %v: %s; assisted-service's install-config has no such field (sourcePolicy: set mirrorSourcePolicy in an ImageDigestMirrorSet extra manifest)", ov.Field, key, err, annotationRefused)
			return false
		}
		return true
	}
	if _, ok := top["imageDigestSources"]; ok {
		decoded := append([]spokeSource(nil), base...)
		if !strict("imageDigestSources", &decoded) {
			return nil, true
		}
		checkSpokeEntries(fs, ov, decoded, len(base), b)
		list = decoded
	}
	if _, ok := top["imageContentSources"]; ok {
		var content []spokeSource
		if !strict("imageContentSources", &content) {
			return nil, true
		}
		if len(content) > 0 && len(list) > 0 {
			fs.add(keyPos(ov, ov.Locate("imageContentSources", true)), check.Error, RuleInstallBothLists, installer,
				"%s.imageContentSources with the imageDigestSources assisted-service generates from the %s (4.14+): openshift-install refuses: cannot set imageContentSources and imageDigestSources at the same time; write imageDigestSources instead", ov.Field, b.from)
			return nil, true
		}
	}
	return list, false
}

// annotationRefused is what assisted-service does with an overrides
// document it cannot decode.
const annotationRefused = "assisted-service refuses the annotation (AgentClusterInstall SpecSynced=False, InputError: Failed to parse 'agent-install.openshift.io/install-config-overrides' annotation), so the spoke never installs"

// inside names the place p inside the overrides document, for messages:
// installConfigOverrides.networking.clusterNetwork[0].
func inside(ov *sites.Overrides, p manifest.Path) string {
	if len(p) == 0 {
		return ov.Field
	}
	return ov.Field + "." + p.String()
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

// checkSpokeEntries reports what the override does to the base's list:
// entries dropped, entries inheriting the base entry's mirrors at their
// index, names the installer refuses.
func checkSpokeEntries(fs *findings, ov *sites.Overrides, decoded []spokeSource, nBase int, b spokeBase) {
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
		fs.add(keyPos(ov, ov.Locate("imageDigestSources", true)), check.Warning, RuleOverridesReplaces, assisted,
			"%s.imageDigestSources is empty: it drops every %s mirror for this spoke, which then pulls from the sources; delete the key to keep the %s's mirrors", ov.Field, b.from, b.from)
	case len(lost) > 0:
		noun := "is"
		if len(lost) > 1 {
			noun = "are"
		}
		fs.add(keyPos(ov, ov.Locate("imageDigestSources", true)), check.Warning, RuleOverridesReplaces, assisted,
			"%s.imageDigestSources replaces the %s mirrors for this spoke: %s %s no longer mirrored; list every source the spoke needs, the %s's included", ov.Field, b.from, strings.Join(lost, ", "), noun, b.from)
	}
	for i, e := range decoded {
		entry := fmt.Sprintf("imageDigestSources[%d]", i)
		if i < nBase && !ov.Has(entry+".mirrors") {
			fs.add(keyPos(ov, ov.Locate(entry, false)), check.Warning, RuleOverridesInherits, assisted,
				"%s.%s has no mirrors: assisted-service decodes it over the %s's entry %d, so %s gets that entry's mirrors (%s); write the mirrors out", ov.Field, entry, b.from, i, e.Source, strings.Join(e.Mirrors, ", "))
		}
		if i < nBase && !ov.Has(entry+".source") {
			fs.add(keyPos(ov, ov.Locate(entry, false)), check.Warning, RuleOverridesInherits, assisted,
				"%s.%s has no source: it keeps the %s entry %d's source %s; write the source out", ov.Field, entry, b.from, i, e.Source)
		}
		ds := DigestSource{Source: e.Source, Mirrors: e.Mirrors, Path: manifest.Path{"imageDigestSources", i}}
		checkNames(fs, func(p manifest.Path) place { return placeIn(ov, p) }, ds, "imageDigestSources", installer, ov.Field+".")
		if ov.Has(entry + ".mirrors") {
			// Mirrors the entry inherits are the base file's to repeat.
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
		fs.addAt(placeIn(ov, p), check.Error, RuleInstallDuplicate, "kube-apiserver",
			"%s.%s: duplicate mirror %q for %s: %s", ov.Field, p, ds.Mirrors[j], ds.Source, duplicateRefused)
	}
}
