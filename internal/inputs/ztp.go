package inputs

import (
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
// ClusterImageSets, and the release the run is given, which every spoke is
// read as (zero when none: each spoke's own, else the newest behaviour).
type releases struct {
	sets  []*manifest.Object
	given render.Version
}

// spoke is what one ZTP site gets: the base's entries, with the site's
// overrides decoded over them, written as the installer of the spoke's
// release writes them (see contentsources.go), and checked as that
// release: the run's when it gives one (--openshift-version), as it does
// for every cluster, else the one the site names. Its Inputs hold the
// ClusterImageSet it names when the tree has it; the caller adds the site
// and the hub objects.
func spoke(s *sites.Site, b spokeBase, rel releases) (*Cluster, []Finding) {
	var fs findings
	c := &Cluster{Name: s.Name, Kind: "ztp-spoke", From: s.Object.Locate(s.Path), Version: rel.given}
	r := releaseOf(s, rel.sets)
	if r.set != nil {
		c.Inputs = []*manifest.Object{r.set}
	}
	if !r.v.IsZero() {
		var ok bool
		if c.Version, ok = checkedAs(r.v, rel.given); !ok {
			releaseNote(&fs, r.v, c.Version, r.at, r.from)
			fs[len(fs)-1].OfSpoke = true
		}
	}
	key := spokeKey(c.Version)
	var base []spokeSource
	for _, d := range b.entries {
		base = append(base, spokeSource{Source: d.Source, Mirrors: append([]string(nil), d.Mirrors...)})
	}
	list, listKey := base, key
	if ov := s.Overrides; ov != nil {
		var refused bool
		list, listKey, refused = overrides(&fs, s, ov, base, b, c.Version)
		if refused {
			c.Refused = true
			return c, fs
		}
	}
	inherited, at := b.entries, c.From
	if listKey != key {
		// The overrides' other list, decoded over nothing: the objects
		// made of it are theirs.
		inherited, at = nil, keyPos(s.Overrides, s.Overrides.Locate(listKey, true))
	}
	c.install(placeEntries(s.Overrides, list, listKey, inherited), listKey, at)
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

// placesIn returns where a finding about the JSON value at a path of ov
// goes (keyPos), with the value's own place beside it when that is
// elsewhere: a rule covering what the spoke's mirror objects would repeat
// about the value drops those findings there.
func placesIn(ov *sites.Overrides) func(manifest.Path) place {
	return func(p manifest.Path) place {
		fine := ov.Locate(p.String(), false)
		pl := place{pos: keyPos(ov, fine)}
		if pl.pos != fine {
			pl.at = fine
		}
		return pl
	}
}

// overrides checks the site's JSON as the siteconfig webhook or generator
// and assisted-service read it (an AgentClusterInstall's annotation as
// assisted-service alone reads it), and the install-config it makes as
// openshift-install of release v reads it; it returns the list the
// installer writes the spoke's mirror objects from and its key (base is
// under spokeKey(v)); refused is true when a component refuses the site.
func overrides(fs *findings, s *sites.Site, ov *sites.Overrides, base []spokeSource, b spokeBase, v render.Version) (list []spokeSource, listKey string, refused bool) {
	key := spokeKey(v)
	list, listKey = base, key
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
		return nil, key, true
	}
	// assisted-service decodes the annotation, whose keys the generator
	// may have sorted (a document with networking is re-encoded), so that
	// is what is walked below; its paths are the document's.
	doc, err := ov.Annotation()
	if err != nil {
		if s.Kind == sites.KindClusterInstance {
			fs.add(ov.Key, check.Error, RuleOverridesJSON, "siteconfig operator",
				"installConfigOverrides cannot be merged with networkType (%v): the SiteConfig operator then renders the AgentClusterInstall without the install-config-overrides annotation, so none of these overrides apply; write a JSON object", err)
			return list, key, false
		}
		fs.add(ov.Key, check.Error, RuleOverridesJSON, "siteconfig-generator",
			"installConfigOverrides cannot be merged with networkType: the siteconfig-generator fails: %v; write a JSON object", err)
		return nil, key, true
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
		return nil, key, true
	}
	return overrideLists(fs, ov, base, b, v)
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
