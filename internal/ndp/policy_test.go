package ndp

import (
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/mirrorlint/mirrorlint/render"
)

var v417, v418, v421 = render.Version{Minor: 17, Patch: -1}, render.Version{Minor: 18, Patch: -1}, render.Version{Minor: 21, Patch: -1}

func files(entries ...string) operatorv1.NodeDisruptionPolicyConfig {
	var c operatorv1.NodeDisruptionPolicyConfig
	for _, p := range entries {
		c.Files = append(c.Files, operatorv1.NodeDisruptionPolicySpecFile{Path: p, Actions: []operatorv1.NodeDisruptionPolicySpecAction{{Type: operatorv1.NoneSpecAction}}})
	}
	return c
}

const dropIn = "/etc/containers/registries.conf.d/01-image-searchRegistries.conf"

// The daemon's path matching: equal strings or the file under the entry
// taken as a directory, the longest entry string winning.
func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		entries []string
		file    string
		want    string // the matching entry's path, "" for none
	}{
		{[]string{"/etc/containers"}, dropIn, "/etc/containers"},
		{[]string{"/etc/containers/"}, dropIn, "/etc/containers/"},
		{[]string{"/etc"}, dropIn, "/etc"},
		{[]string{"/etc/containers//registries.conf.d"}, dropIn, "/etc/containers//registries.conf.d"},
		{[]string{"/etc/containers/registries"}, dropIn, ""},
		{[]string{"/"}, dropIn, ""},
		{[]string{"etc/containers/registries.conf.d"}, dropIn, ""},
		{[]string{"/etc/containers/registries.conf.d/*"}, dropIn, ""},
		{[]string{"/ETC/containers"}, dropIn, ""},
		{[]string{dropIn + "/"}, dropIn, ""},
		// A user entry on a parent never beats a longer default.
		{[]string{"/etc/containers"}, RegistriesConfPath, RegistriesConfPath},
		{[]string{"/etc/containers"}, "/etc/containers/registries.d/sigstore-registries.yaml", RegistriesDDir},
	} {
		p := Merge(v421, files(tc.entries...))
		r, ok := p.Match(tc.file)
		got := ""
		if ok {
			got = r.Path
		}
		if got != tc.want {
			t.Errorf("entries %q, file %s: matched %q, want %q", tc.entries, tc.file, got, tc.want)
		}
	}
}

// A user entry with a default's exact path replaces it in place (the
// Special behaviour of registries.conf is then gone); others are appended.
func TestMergeReplacesDefaults(t *testing.T) {
	p := Merge(v421, files(RegistriesConfPath, "/etc/chrony.conf"))
	r, _ := p.Match(RegistriesConfPath)
	if r.Default() || r.Actions[0].Type != None {
		t.Errorf("registries.conf entry %+v, want the user's None", r)
	}
	if p.Files[3].Path != RegistriesConfPath || p.Files[len(p.Files)-1].Path != "/etc/chrony.conf" {
		t.Errorf("order %+v", p.Files)
	}
	if len(p.Files) != len(DefaultFiles(v421))+1 {
		t.Errorf("%d entries", len(p.Files))
	}
}

// The releases' defaults differ: /etc/crio/policies has a reload-crio
// default from 4.18 only.
func TestDefaultsByRelease(t *testing.T) {
	f := "/etc/crio/policies/openshift-config.json"
	if _, ok := Merge(v417, files()).Match(f); ok {
		t.Error("4.17 has a default for /etc/crio/policies")
	}
	if r, ok := Merge(v418, files()).Match(f); !ok || r.Actions[0].String() != "Reload - crio.service" {
		t.Errorf("4.18: %+v %v", r, ok)
	}
}

func TestDecide(t *testing.T) {
	p := Merge(v421, files(dropIn))
	for _, tc := range []struct {
		changed       []string
		safe, special bool
		want          string
		drain         bool
	}{
		{nil, true, false, "None", false},
		{[]string{dropIn}, true, false, "None", false},
		{[]string{RegistriesConfPath, dropIn}, true, false, "Special", false},
		{[]string{RegistriesConfPath, dropIn}, false, false, "Special", true},
		{[]string{RegistriesConfPath}, false, true, "Special", false},
		{[]string{PolicyJSONPath, "/etc/containers/registries.d/x.yaml"}, true, false, "Reload - crio.service, Reload - crio.service", false},
		{[]string{PolicyJSONPath, "/etc/unknown"}, true, false, "Reboot", true},
	} {
		d := p.Decide(tc.changed, tc.safe, tc.special)
		var got []string
		for _, a := range d.Actions {
			got = append(got, a.String())
		}
		if strings.Join(got, ", ") != tc.want || d.Drain != tc.drain {
			t.Errorf("%q (safe %v, override %v): %q drain %v, want %q drain %v", tc.changed, tc.safe, tc.special, got, d.Drain, tc.want, tc.drain)
		}
	}
}
