// The plan's corpus test is an external test package: it loads cases with
// the real loader (internal/corpus, through internal/check), which imports
// this package.
package mco_test

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
)

// TestPlanRegistriesAreWhatMCOWrites holds the plan's registry entries, the
// ones the rules read, to the registries.conf MCO itself wrote for every
// corpus case it rendered: the same scopes in the same order with the same
// insecure and blocked flags, and each entry placed on a value of its scope.
func TestPlanRegistriesAreWhatMCOWrites(t *testing.T) {
	corpus.RunBoth(t, "../../render/testdata/corpus", corpus.SharedRender, func(t *testing.T, root string) {
		cases, err := corpus.Cases(root, "")
		if err != nil {
			t.Fatal(err)
		}
		compared, kept := 0, 0
		for _, c := range cases {
			t.Run(c.Name, func(t *testing.T) {
				in, err := c.RenderInput()
				if err != nil {
					t.Fatalf("load: %v", err)
				}
				p := mco.NewPlan(in)
				out, err := p.Render()
				var r *mco.Refusal
				if errors.As(err, &r) || corpus.ReadTrim(c.Expected("registries-source.txt")) != "generated" {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(c.Expected("registries.conf"))
				if err != nil {
					t.Fatal(err)
				}
				conf, err := nodefiles.Decode(want)
				if err != nil {
					t.Fatal(err)
				}
				if len(conf.Registries) != len(p.Registries) {
					t.Fatalf("plan has %d registry entries, MCO wrote %d", len(p.Registries), len(conf.Registries))
				}
				for i, w := range conf.Registries {
					g := p.Registries[i]
					scope := w.Prefix
					if scope == "" {
						scope = w.Location
					}
					if strings.TrimRight(g.Scope, "/") != strings.TrimRight(scope, "/") || g.Insecure != w.Insecure || g.Blocked != w.Blocked {
						t.Errorf("entry %d: plan %q insecure=%v blocked=%v, MCO wrote %q insecure=%v blocked=%v",
							i, g.Scope, g.Insecure, g.Blocked, scope, w.Insecure, w.Blocked)
					}
					if len(w.Mirrors) > 0 && g.Set < 0 && g.CopyFrom < 0 {
						t.Errorf("entry %d (%s): MCO wrote mirrors, the plan has neither a set nor a copy", i, g.Scope)
					}
					if g.At.Kind == "" || g.At.Path == "" {
						t.Errorf("entry %d (%s) has no subject", i, g.Scope)
					}
				}
				if !out.Generated {
					t.Errorf("the plan's render did not generate registries.conf")
				}
				// The value the rules read instead of decoding the file is
				// what the file MCO wrote decodes to.
				if w := p.WrittenRegistries(); w != nil {
					if !reflect.DeepEqual(*w, conf) {
						t.Errorf("the value kept for the rules differs from MCO's file decoded:\n%+v\n---\n%+v", *w, conf)
					}
					kept++
				}
				compared++
			})
		}
		t.Logf("%s: plan registry entries equal to MCO's registries.conf in %d cases, the value kept for the rules in %d", root, compared, kept)
		if compared > 0 && kept == 0 {
			t.Errorf("no case kept the written value: the comparison above checked nothing")
		}
	})
}
