package policy

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/lint"
	"github.com/mirrorlint/mirrorlint/internal/render"
	"github.com/mirrorlint/mirrorlint/internal/rules"
)

// The Rego icsp-mixed-with-sets must be a drop-in for the Go rule: same
// findings, field for field, on several trees and target versions. Once
// the Go duplicate is removed this test skips; delete it then.
func TestICSPMixMatchesGoRule(t *testing.T) {
	goRule := rules.Registry().Get("icsp-mixed-with-sets")
	if goRule == nil || goRule.Check == nil {
		t.Skip("the Go rule is gone: the Rego policy is the single source of truth")
	}
	reg, err := lint.NewRegistry(goRule)
	if err != nil {
		t.Fatal(err)
	}
	pe := mustLoad(t, Options{Builtin: true})
	for _, tree := range []string{"testdata/mixed", "testdata/manifests", "../cluster/testdata/gitops/base"} {
		for _, version := range []string{"", "4.13", "4.13.10", "4.13.27", "4.16"} {
			c := loadFixture(t, tree)
			if version != "" {
				v, err := render.ParseVersion(version)
				if err != nil {
					t.Fatal(err)
				}
				c.Cluster.Settings.Version = v
			}
			goFs, _, err := (&lint.Engine{Rules: reg}).Lint(c.Cluster)
			if err != nil {
				t.Fatal(err)
			}
			regoFs, err := pe.Evaluate(lint.NewContext(c.Cluster))
			if err != nil {
				t.Fatal(err)
			}
			var mix []lint.Finding
			for _, f := range regoFs {
				if f.Rule == "icsp-mixed-with-sets" {
					mix = append(mix, f)
				}
			}
			// The lint engine adds the cluster name; Evaluate leaves that to it.
			for i := range goFs {
				goFs[i].Clusters = nil
			}
			if !reflect.DeepEqual(goFs, mix) {
				t.Errorf("%s @ %q:\n go:   %s\n rego: %s", tree, version, detail(goFs), detail(mix))
			}
		}
	}
}

func detail(fs []lint.Finding) string {
	b, _ := json.MarshalIndent(fs, "", "  ")
	return string(b)
}
