package rules

import "github.com/mirrorlint/mirrorlint/internal/manifest"

// modelled are the kinds the loader decodes into API types: what every
// built-in rule reads, through Context.Objects, Context.All or the mirror
// entries.
var modelled = []string{
	string(manifest.KindICSP), string(manifest.KindIDMS), string(manifest.KindITMS),
	string(manifest.KindImage), string(manifest.KindMachineConfig),
	string(manifest.KindClusterImagePolicy), string(manifest.KindImagePolicy),
	string(manifest.KindFeatureGate), string(manifest.KindClusterVersion),
}

// reads declares, per built-in rule, the object kinds it reads
// (check.Rule.Reads). A rule that reads another kind (a workload, a
// CatalogSource) must say so here: a pre-commit run leaves files holding
// no needed kind unparsed. TestRulesDeclareReads fails for a rule missing
// from this table.
var reads = map[string][]string{}

func init() {
	for _, id := range []string{
		"api-version-kind", "required-fields", "unknown-field", "source-policy-enum", "source-format",
		"mirror-format", "repository-lowercase", "mirror-duplicate", "image-allowed-and-blocked",
		"search-registries-schema", "manifest-server-fields", "hosted-cluster", "icsp-format",
		"conflicting-source-policy", "never-contact-self-mirror", "registry-scope-format",
		"wildcard-source-nested", "release-image-invalid", "scheme-in-scope", "duplicate-location",
		"search-registry-format", "mirror-order-conflict", "no-real-mirror", "source-among-mirrors",
		"nested-source-shadows", "nested-copy-wrong-ancestor", "never-contact-blocks-tags",
		"mirror-in-blocked-scope", "payload-blocked", "allowed-incomplete", "tag-mirror-trust",
		"image-config-name", "icsp-deprecated", "hand-written-registries-conf", "scope-never-matches",
		"object-name", "duplicate-object", "duplicate-key",
		"signature-policy-schema", "policy-scope-blocked", "policy-scope-not-allowed",
		"signature-policy-invalid", "policy-scope-atomic", "imagepolicy-scope-conflict",
		"duplicate-policy-scope", "reserved-policy-name", "hand-written-signature-files",
		"release-signatures-mirrored",
	} {
		reads[id] = modelled
	}
	// The images the nodes pull, checked against the render.
	reads[ImagePullFailsID] = append(append([]string(nil), modelled...), manifest.ImageKinds()...)
	for _, r := range All() {
		if r.Reads == nil {
			r.Reads = reads[r.ID]
		}
	}
}
