package inputs

import (
	"fmt"
	"path"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

const installer = "openshift-install"

// Rule ids of the install-config checks.
const (
	RuleInstallMirrorFormat   = "install-config-mirror-format"
	RuleInstallBothLists      = "install-config-both-mirror-lists"
	RuleInstallDeprecated     = "install-config-image-content-sources"
	RuleInstallSourcePolicy   = "install-config-source-policy"
	RuleInstallDuplicate      = "install-config-duplicate-mirror"
	RuleInstallPolicyConflict = "install-config-conflicting-source-policy"
	RuleInstallTrustPolicy    = "install-config-trust-bundle-policy"
)

// sourcePolicySince is the first installer release that reads
// imageDigestSources[].sourcePolicy (openshift/installer PR #10050).
const sourcePolicySince = 21

// DigestSource is one imageDigestSources (or imageContentSources) entry
// with the path it was read from.
type DigestSource struct {
	Source       string
	Mirrors      []string
	SourcePolicy string
	// MirrorsSet is false when the entry has no mirrors key at all (an
	// override entry then keeps the hub's mirrors).
	MirrorsSet bool
	Path       manifest.Path
	// At, SourceAt and MirrorAt place the entry, its source and each
	// mirror in the input (zero when unknown): the objects made from the
	// entry point there.
	// MirrorsAt is the mirrors list.
	At, SourceAt, MirrorsAt manifest.Position
	MirrorAt                []manifest.Position
}

// locate fills the positions of entries read from o.
func locate(o *manifest.Object, list []DigestSource) {
	for i := range list {
		ds := &list[i]
		ds.At, ds.SourceAt = o.Locate(ds.Path), o.Locate(ds.Path.Child("source"))
		if ds.MirrorsSet {
			ds.MirrorsAt = o.Locate(ds.Path.Child("mirrors"))
		}
		for j := range ds.Mirrors {
			ds.MirrorAt = append(ds.MirrorAt, o.Locate(ds.Path.Child("mirrors", j)))
		}
	}
}

// InstallConfig is one install-config.yaml.
type InstallConfig struct {
	Object *manifest.Object
	Name   string // metadata.name, the cluster's name
	// Agent is true when agent-config.yaml sits beside it: the agent-based
	// installer reads the directory.
	Agent       bool
	Publish     string
	Digest      []DigestSource
	Content     []DigestSource // the deprecated imageContentSources
	TrustPolicy string
	HasDigest   bool // imageDigestSources is set (even empty)
	HasContent  bool
	// DroppedDigest is set when the installer of the release read as has
	// no imageDigestSources (before 4.14) and the file writes the key: it
	// warns and drops the list, so Digest is empty.
	DroppedDigest bool
}

// readInstallConfig reads o as openshift-install of release v (zero: the
// newest) reads it.
func readInstallConfig(o *manifest.Object, agentDirs map[string]bool, v render.Version) *InstallConfig {
	ic := &InstallConfig{Object: o, Agent: agentDirs[path.Dir(o.File)]}
	ic.Name, _ = manifest.NestedString(o.Content, "metadata", "name")
	ic.Publish, _ = o.Content["publish"].(string)
	if ic.Publish == "" {
		ic.Publish = "External"
	}
	ic.TrustPolicy, _ = o.Content["additionalTrustBundlePolicy"].(string)
	_, ic.HasDigest = o.Content["imageDigestSources"]
	_, ic.HasContent = o.Content["imageContentSources"]
	ic.Digest = readSources(o.Content["imageDigestSources"], manifest.Path{"imageDigestSources"})
	ic.Content = readSources(o.Content["imageContentSources"], manifest.Path{"imageContentSources"})
	locate(o, ic.Digest)
	locate(o, ic.Content)
	if ic.HasDigest && !readsDigestSources(v) {
		// Its strict decode fails on the key, and the lenient one
		// leaves it out (see contentsources.go).
		ic.DroppedDigest, ic.HasDigest, ic.Digest = true, false, nil
	}
	return ic
}

// readSources reads a list of {source, mirrors, sourcePolicy} maps; items
// of the wrong shape are left out (the installer's strict decode refuses
// the file, which the schema checks report).
func readSources(v any, at manifest.Path) []DigestSource {
	list, _ := v.([]any)
	var out []DigestSource
	for i, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		ds := DigestSource{Path: at.Child(i)}
		ds.Source, _ = m["source"].(string)
		ds.SourcePolicy, _ = m["sourcePolicy"].(string)
		var mirrors []any
		mirrors, ds.MirrorsSet = m["mirrors"].([]any)
		for _, mv := range mirrors {
			s, _ := mv.(string)
			ds.Mirrors = append(ds.Mirrors, s)
		}
		out = append(out, ds)
	}
	return out
}

// Check validates the install-config as openshift-install of release v
// does (v zero: the newest).
func (ic *InstallConfig) Check(v render.Version) []Finding {
	var fs findings
	o := ic.Object
	if ic.HasDigest && ic.HasContent && len(ic.Digest) > 0 && len(ic.Content) > 0 {
		msg := fmt.Sprintf("imageContentSources: Invalid value: %q: cannot set imageContentSources and imageDigestSources at the same time", ic.Publish)
		if ic.Agent {
			msg = "invalid install-config.yaml, cannot set imageContentSources and imageDigestSources at the same time"
		}
		fs.add(o.LocateKey(manifest.Path{"imageContentSources"}), check.Error, RuleInstallBothLists, installer,
			"imageContentSources and imageDigestSources cannot both be set (%s: %s): move the entries into imageDigestSources and delete imageContentSources", installer, msg)
	} else if len(ic.Content) > 0 && readsDigestSources(v) {
		fs.add(o.LocateKey(manifest.Path{"imageContentSources"}), check.Warning, RuleInstallDeprecated, installer,
			"imageContentSources is deprecated, please use ImageDigestSources (%s warns): rename the key to imageDigestSources, the entries keep their form", installer)
	}
	if ic.DroppedDigest {
		fs.add(o.LocateKey(manifest.Path{keyDigest}), check.Warning, RuleInstallUnknownField, installer,
			"imageDigestSources is not read by %s %s (the field exists from 4.%d): it warns %q and drops it, so the cluster is installed without these mirrors; write them as imageContentSources entries (source, mirrors)",
			installer, v, digestSourcesSince, unknownFieldWarning(v))
	}
	for _, list := range [][]DigestSource{ic.Digest, ic.Content} {
		for _, ds := range list {
			checkNames(&fs, func(p manifest.Path) place { return place{pos: o.Locate(p)} }, ds, ds.Path[0].(string), installer, "")
		}
	}
	ic.checkSourcePolicy(&fs, v)
	ic.checkUnknownFields(&fs)
	// A repeat in imageContentSources is the ICSP's business: its mirrors
	// are no set, and mirror-duplicate reports it on the ICSP created.
	for _, ds := range ic.Digest {
		for _, j := range repeatedMirrors(ds) {
			fs.add(o.Locate(ds.Path.Child("mirrors", j)), check.Error, RuleInstallDuplicate, "kube-apiserver",
				"duplicate mirror %q for %s: %s", ds.Mirrors[j], ds.Source, duplicateRefused)
		}
	}
	ic.checkPolicyConflict(&fs)
	if ic.TrustPolicy != "" && ic.TrustPolicy != "Proxyonly" && ic.TrustPolicy != "Always" {
		fs.add(o.Locate(manifest.Path{"additionalTrustBundlePolicy"}), check.Error, RuleInstallTrustPolicy, installer,
			"additionalTrustBundlePolicy must be Proxyonly or Always (%s: additionalTrustBundlePolicy: Invalid value: %q: supported values \"Proxyonly\", \"Always\"): the values are case-sensitive",
			installer, ic.TrustPolicy)
	}
	return fs
}

// checkNames reports sources and mirrors the installer's
// validateNamedRepository refuses. field is the list's name in the
// installer's error path; prefix goes before the message (where the list
// sits inside another document).
func checkNames(fs *findings, locate func(manifest.Path) place, ds DigestSource, field, component, prefix string) {
	i := ds.Path[len(ds.Path)-1].(int)
	// A reference configuration's placeholder (<registry.example.com:8443>)
	// is no value to judge: the mirror set written from it holds it too,
	// and the placeholder rule reports it there once, unjudged.
	if err := validateNamedRepository(ds.Source); err != nil && manifest.PlaceholderIn(ds.Source) == "" {
		fs.addAt(locate(ds.Path.Child("source")), check.Error, RuleInstallMirrorFormat, component,
			"%s%s[%d].source: Invalid value: %q: %v (%s refuses the install-config): %s", prefix, field, i, ds.Source, err, component, nameFix(err))
	}
	for j, m := range ds.Mirrors {
		if err := validateNamedRepository(m); err != nil && manifest.PlaceholderIn(m) == "" {
			fs.addAt(locate(ds.Path.Child("mirrors", j)), check.Error, RuleInstallMirrorFormat, component,
				"%s%s[%d].mirrors[%d]: Invalid value: %q: %v (%s refuses the install-config): %s", prefix, field, i, j, m, err, component, nameFix(err))
		}
	}
}

func nameFix(err error) string {
	switch msg := err.Error(); {
	case msg == "must be repository--not reference":
		return "drop the tag or digest, mirrors are repositories"
	case len(msg) > 30 && msg[:30] == "the repository provided is inv":
		return "start the value with the registry host (host[:port]/path)"
	}
	return "write a lower-case repository name host[:port]/path, without wildcards"
}

func (ic *InstallConfig) checkSourcePolicy(fs *findings, v render.Version) {
	o := ic.Object
	for _, ds := range ic.Digest {
		if ds.SourcePolicy == "" {
			continue
		}
		i := ds.Path[1].(int)
		at := o.Locate(ds.Path.Child("sourcePolicy"))
		if !v.IsZero() && v.Minor < sourcePolicySince {
			fs.add(at, check.Warning, RuleInstallSourcePolicy, installer,
				"sourcePolicy is not read by openshift-install before 4.%d: 4.%d warns \"failed to parse first occurrence of unknown field\" and drops it, so the cluster may contact %s; install with a 4.%d installer or set mirrorSourcePolicy in an ImageDigestMirrorSet day-2",
				sourcePolicySince, v.Minor, ds.Source, sourcePolicySince)
			continue
		}
		switch {
		case ds.SourcePolicy != string(configv1.NeverContactSource) && ds.SourcePolicy != string(configv1.AllowContactingSource):
			fs.add(at, check.Error, RuleInstallSourcePolicy, installer,
				"imageDigestSources[%d].sourcePolicy: Invalid value: %q: supported values are \"NeverContactSource\" and \"AllowContactingSource\" (%s refuses the install-config)",
				i, ds.SourcePolicy, installer)
		case len(ds.Mirrors) == 0:
			fs.add(at, check.Error, RuleInstallSourcePolicy, installer,
				"imageDigestSources[%d].sourcePolicy: Invalid value: %q: sourcePolicy cannot be configured without a mirror (%s refuses the install-config): add mirrors or delete sourcePolicy",
				i, ds.SourcePolicy, installer)
		}
	}
}

// duplicateRefused says what becomes of a mirror listed twice in one
// imageDigestSources entry.
const duplicateRefused = "openshift-install does not check it, but the ImageDigestMirrorSet it writes is refused by the API server (mirrors is a set): " +
	"the install fails applying it; delete the repeated mirror"

// repeatedMirrors returns the indexes of ds's mirrors that an earlier
// mirror of the entry repeats.
func repeatedMirrors(ds DigestSource) []int {
	var out []int
	seen := map[string]bool{}
	for j, m := range ds.Mirrors {
		if seen[m] {
			out = append(out, j)
		}
		seen[m] = true
	}
	return out
}

// checkPolicyConflict reports one source given with two source policies:
// the bootstrap file holds two tables for one location, which
// containers/image refuses, and MCO refuses the IDMS.
func (ic *InstallConfig) checkPolicyConflict(fs *findings) {
	first := map[string]DigestSource{}
	for _, ds := range ic.Digest {
		if len(ds.Mirrors) == 0 {
			continue
		}
		prev, ok := first[ds.Source]
		if !ok {
			first[ds.Source] = ds
			continue
		}
		if never(prev.SourcePolicy) != never(ds.SourcePolicy) {
			fs.add(ic.Object.Locate(ds.Path.Child("source")), check.Error, RuleInstallPolicyConflict, installer,
				"%s is listed again with another sourcePolicy (first at line %d): the bootstrap node's registries.conf gets two tables for it, which containers/image refuses (registry '%s' is defined multiple times with conflicting 'blocked' setting), and MCO refuses the ImageDigestMirrorSet; give both entries the same sourcePolicy",
				ds.Source, ic.Object.Locate(prev.Path).Line, ds.Source)
		}
	}
}

func never(p string) bool { return p == string(configv1.NeverContactSource) }
