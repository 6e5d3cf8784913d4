package inputs

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"github.com/mirrorlint/mirrorlint/render"
)

// A mirror an override lists twice in one entry is the install-config
// rule's, in the override's words, on the installConfigOverrides key's
// line with the repeat inside the JSON as its exact place; a mirror the
// entry inherits from the hub is the hub file's, not the override's.
func TestOverridesDuplicateMirror(t *testing.T) {
	got, _ := overrideFindings(t, "    {\"imageDigestSources\": [\n"+
		"      {\"source\": \"quay.io/a\", \"mirrors\": [\"m.example.com/a\", \"m.example.com/b\", \"m.example.com/a\"]},\n"+
		"      {\"source\": \"quay.io/c\", \"mirrors\": [\"m.example.com/c\"]}]}\n", RuleInstallDuplicate)
	if len(got) != 1 {
		t.Fatalf("findings %v, want one", got)
	}
	f := got[0]
	if f.Pos.Line != 9 || f.At.Line != 11 || f.At.Column != 81 || f.Component != "kube-apiserver" ||
		!strings.HasPrefix(f.Message, `installConfigOverrides.imageDigestSources[0].mirrors[2]: duplicate mirror "m.example.com/a" for quay.io/a: openshift-install does not check it`) {
		t.Errorf("finding %+v at %v", f, f.At)
	}
}

// repeatHub is a hub whose registries.conf lists one mirror twice.
var repeatHub = testtree.HubFile("mirrors", `[[registry]]
location = "quay.io/a"
[[registry.mirror]]
location = "m.example.com/a"
[[registry.mirror]]
location = "m.example.com/a"
`)

// An override entry without mirrors keeps the hub entry's, repeat
// included: that is the hub file's to fix, not the override's.
func TestOverridesDuplicateInheritedNotTheOverrides(t *testing.T) {
	files := overridesSite("    {\"imageDigestSources\": [{\"source\": \"quay.io/a\"}]}\n")
	files["hub.yaml"] = repeatHub
	for _, f := range readTree(t, files, render.Version{}).Findings {
		if f.Rule == RuleInstallDuplicate {
			t.Errorf("reported on the override: %v", f)
		}
	}
}

// installConfigOverrides that YAML reads as a mapping (unquoted JSON) is
// a problem with the overrides, not with the labels.
func TestOverridesNotAString(t *testing.T) {
	files := overridesSite("")
	files["ci.yaml"] = strings.Replace(files["ci.yaml"], "installConfigOverrides: |\n", "installConfigOverrides: {\"fips\": true}\n", 1)
	var got []Finding
	for _, f := range readTree(t, files, render.Version{}).Findings {
		if f.Rule == RuleOverridesJSON || f.Rule == RuleSiteLabels {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Rule != RuleOverridesJSON || got[0].Pos.Line != 9 ||
		!strings.Contains(got[0].Message, "installConfigOverrides must be a string holding JSON") {
		t.Errorf("findings %v, want one %s at line 9", got, RuleOverridesJSON)
	}
}
