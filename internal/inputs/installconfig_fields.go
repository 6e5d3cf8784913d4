package inputs

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// RuleInstallUnknownField: a mirror setting written under a key the
// installer does not know.
const RuleInstallUnknownField = "install-config-unknown-field"

// openshift-install decodes install-config.yaml strictly first and, when
// that fails on a field it does not know, warns "failed to parse first
// occurrence of unknown field" and decodes again without it: the setting
// is dropped and the install goes on. Of a mirror list's entries it knows
// source and mirrors, and sourcePolicy in imageDigestSources; the other
// keys are dropped, most often an ImageDigestMirrorSet's spelling
// (mirrorSourcePolicy). misplacedMirrorKeys are the mirror objects'
// lists written at the top of the install-config, where the installer
// reads imageDigestSources.
var (
	entryFields = map[string][]string{
		"imageDigestSources":  {"source", "mirrors", "sourcePolicy"},
		"imageContentSources": {"source", "mirrors"},
	}
	misplacedMirrorKeys = map[string]string{
		"repositoryDigestMirrors": "the ImageContentSourcePolicy's",
		"imageDigestMirrors":      "the ImageDigestMirrorSet's",
		"imageTagMirrors":         "the ImageTagMirrorSet's",
	}
)

// checkUnknownFields reports the mirror settings the installer drops.
func (ic *InstallConfig) checkUnknownFields(fs *findings) {
	o := ic.Object
	for _, key := range slices.Sorted(maps.Keys(misplacedMirrorKeys)) {
		if _, ok := o.Content[key]; ok {
			whose := misplacedMirrorKeys[key]
			fs.add(o.LocateKey(manifest.Path{key}), check.Warning, RuleInstallUnknownField, installer,
				"%s is not an install-config field (it is %s spelling): %s warns \"failed to parse first occurrence of unknown field\" and drops it, so the cluster is installed without these mirrors; "+
					"write them as imageDigestSources entries (source, mirrors)", key, whose, installer)
		}
	}
	for _, list := range [][]DigestSource{ic.Digest, ic.Content} {
		for _, ds := range list {
			field, i := ds.Path[0].(string), ds.Path[1].(int)
			entries, _ := o.Content[field].([]any)
			m, _ := entries[i].(map[string]any)
			for _, key := range slices.Sorted(maps.Keys(m)) {
				if slices.Contains(entryFields[field], key) {
					continue
				}
				fs.add(o.LocateKey(ds.Path.Child(key)), check.Warning, RuleInstallUnknownField, installer,
					"%s[%d].%s is not an install-config field: %s warns \"failed to parse first occurrence of unknown field\" and drops it%s",
					field, i, key, installer, unknownEntryFix(field, key, ds.Source))
			}
		}
	}
}

// unknownEntryFix says what a dropped key of an entry means and how the
// install-config writes it.
func unknownEntryFix(field, key, source string) string {
	switch {
	case key == "mirrorSourcePolicy" && field == "imageDigestSources":
		return fmt.Sprintf(", so the cluster may still contact %s; the install-config spells it sourcePolicy (read since 4.%d)", source, sourcePolicySince)
	case key == "mirrorSourcePolicy" || key == "sourcePolicy":
		return fmt.Sprintf(", so the cluster may still contact %s; only imageDigestSources entries take a policy (sourcePolicy, read since 4.%d): move the entry there", source, sourcePolicySince)
	}
	return fmt.Sprintf("; an entry holds %s", joinFields(entryFields[field]))
}

func joinFields(fields []string) string {
	switch len(fields) {
	case 2:
		return fields[0] + " and " + fields[1]
	case 3:
		return fields[0] + ", " + fields[1] + " and " + fields[2]
	}
	return fmt.Sprint(fields)
}
