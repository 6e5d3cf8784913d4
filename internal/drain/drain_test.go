package drain

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/render"
)

const head = "unqualified-search-registries = [\"registry.access.redhat.com\", \"docker.io\"]\nshort-name-mode = \"\"\n"

func conf(body string) *render.Output {
	return &render.Output{Generated: true, RegistriesConf: []byte(head + body)}
}

const (
	regA = "\n[[registry]]\n  prefix = \"\"\n  location = \"q.io/a\"\n"
	mDig = "\n  [[registry.mirror]]\n    location = \"m.io/a\"\n    pull-from-mirror = \"digest-only\"\n"
	nDig = "\n  [[registry.mirror]]\n    location = \"n.io/a\"\n    pull-from-mirror = \"digest-only\"\n"
	mTag = "\n  [[registry.mirror]]\n    location = \"m.io/a\"\n    pull-from-mirror = \"tag-only\"\n"
	nTag = "\n  [[registry.mirror]]\n    location = \"n.io/a\"\n    pull-from-mirror = \"tag-only\"\n"
	blk  = "  blocked = true\n"
	ins  = "  insecure = true\n"
)

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new *render.Output
		drain    bool
		reboot   bool
		mention  []string // substrings that some reason must contain
	}{
		{"identical", conf(regA + mDig), conf(regA + mDig), false, false, nil},
		{"template to template", nil, &render.Output{RegistriesConf: nodefiles.RegistriesConf()}, false, false, nil},
		{"add digest mirror", conf(regA + mDig), conf(regA + mDig + nDig), false, false, []string{"digest-only mirror n.io/a added"}},
		{"add tag mirror", conf(regA + mDig), conf(regA + mDig + nTag), true, false, []string{"n.io/a added with pull-from-mirror \"tag-only\""}},
		{"reorder", conf(regA + mDig + nDig), conf(regA + nDig + mDig), false, false, []string{"reordered"}},
		{"remove mirror", conf(regA + mDig + nDig), conf(regA + mDig), true, false, []string{"mirror n.io/a removed"}},
		{"digest to tag", conf(regA + mDig), conf(regA + mTag), true, false, []string{"changed from \"digest-only\" to \"tag-only\""}},
		{"tag to digest", conf(regA + mTag), conf(regA + mDig), false, false, nil},
		{"same location twice, first match counts", conf(regA + mDig), conf(regA + mDig + mTag), true, false, nil},
		// An IDMS and an ITMS share mirror m: a digest-only mirror put in
		// front makes the entry change, and the daemon then compares the
		// unchanged tag-only m with the old digest-only m, and drains.
		{"digest-only mirror added in front of a location listed twice", conf(regA + mDig + mTag), conf(regA + nDig + mDig + mTag), true, false, []string{
			"registry q.io/a: digest-only mirror n.io/a added",
			`registry q.io/a: mirror m.io/a pull-from-mirror "tag-only" is unchanged, but the daemon compares it with the first m.io/a of the old file, "digest-only", and drains (an MCD quirk: it matches mirrors by location only)`,
		}},
		{"block existing", conf(regA + mDig), conf(regA + blk + mDig), true, false, []string{"blocked changed"}},
		{"insecure existing", conf(regA + mDig), conf(regA + ins + mDig), true, false, []string{"insecure changed"}},
		{"new blocked scope with mirrors", conf(""), conf(regA + blk + mDig), false, false, []string{"added with digest-only mirrors"}},
		{"new scope without mirrors", conf(""), conf(regA + blk), true, false, []string{"without mirrors"}},
		{"new tag scope", conf(""), conf(regA + mTag), true, false, nil},
		{"remove scope", conf(regA + mDig), conf(""), true, false, []string{"registry q.io/a removed"}},
		{"template to generated", nil, conf(regA + mDig), false, false, nil},
		{"several reasons listed", conf(regA + mDig + nDig), conf(regA + blk + mTag), true, false, []string{"blocked changed", "n.io/a removed", "tag-only"}},
		{"search drop-in added", conf(regA + mDig), &render.Output{Generated: true, RegistriesConf: []byte(head + regA + mDig), SearchRegistriesConf: []byte("x")}, true, true, []string{"drop-in added"}},
		{"search drop-in changed", &render.Output{RegistriesConf: nodefiles.RegistriesConf(), SearchRegistriesConf: []byte("a")}, &render.Output{RegistriesConf: nodefiles.RegistriesConf(), SearchRegistriesConf: []byte("b")}, true, true, nil},
		{"search list in registries.conf shrinks", conf(""), &render.Output{RegistriesConf: []byte("unqualified-search-registries = [\"docker.io\"]\n")}, true, false, []string{"unqualified-search-registries"}},
		{"search list in registries.conf grows", conf(""), &render.Output{RegistriesConf: []byte("unqualified-search-registries = [\"registry.access.redhat.com\", \"docker.io\", \"quay.io\"]\n")}, false, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Compare(tc.old, tc.new)
			if v.Drain != tc.drain || v.Reboot != tc.reboot {
				t.Fatalf("Drain=%v Reboot=%v, want %v %v; reasons %+v", v.Drain, v.Reboot, tc.drain, tc.reboot, v.Reasons)
			}
			for _, m := range tc.mention {
				found := false
				for _, r := range v.Reasons {
					found = found || strings.Contains(r.Message, m)
				}
				if !found {
					t.Errorf("no reason mentions %q: %+v", m, v.Reasons)
				}
			}
			if tc.name == "identical" && len(v.Reasons) != 0 {
				t.Errorf("identical files produce reasons: %+v", v.Reasons)
			}
		})
	}
}

// Reasons carry what changed and which mirror, so that callers place them
// without parsing the message.
func TestReasonFields(t *testing.T) {
	for _, tc := range []struct {
		name          string
		old, new      *render.Output
		field, mirror string
	}{
		{"remove mirror", conf(regA + mDig + nDig), conf(regA + mDig), FieldMirrorRemoved, "n.io/a"},
		{"add tag mirror", conf(regA + mDig), conf(regA + mDig + nTag), FieldMirrorAdded, "n.io/a"},
		{"block existing", conf(regA + mDig), conf(regA + blk + mDig), FieldBlocked, ""},
		{"remove scope", conf(regA + mDig), conf(""), FieldScopeRemoved, ""},
		{"new tag scope", conf(""), conf(regA + mTag), FieldScopeAdded, "m.io/a"},
		{"digest to tag", conf(regA + mDig), conf(regA + mTag), FieldPullFromMirror, "m.io/a"},
	} {
		v := Compare(tc.old, tc.new)
		if len(v.Reasons) != 1 || v.Reasons[0].Field != tc.field || v.Reasons[0].Mirror != tc.mirror || v.Reasons[0].Scope != "q.io/a" {
			t.Errorf("%s: %+v, want field %q mirror %q", tc.name, v.Reasons, tc.field, tc.mirror)
		}
	}
}
