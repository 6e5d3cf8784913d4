package ndp

import (
	"testing"

	"github.com/mirrorlint/mirrorlint/render"
)

var v416 = render.Version{Minor: 16, Patch: -1}

// 4.16 follows the policies only in the TechPreviewNoUpgrade and
// DevPreviewNoUpgrade feature sets; 4.17 on in every one.
func TestAppliesByFeatureSet(t *testing.T) {
	for _, tc := range []struct {
		v          render.Version
		featureSet string
		want       bool
	}{
		{v416, "Default", false},
		{v416, "", false},
		{v416, "CustomNoUpgrade", false},
		{v416, "TechPreviewNoUpgrade", true},
		{v416, "DevPreviewNoUpgrade", true},
		{render.Version{Minor: 15, Patch: -1}, "TechPreviewNoUpgrade", false},
		{v417, "Default", true},
		{v421, "", true},
	} {
		if got := Applies(tc.v, tc.featureSet); got != tc.want {
			t.Errorf("4.%d %q: %v, want %v", tc.v.Minor, tc.featureSet, got, tc.want)
		}
	}
}

// The 4.16 daemon matches exact paths only; its defaults are the four
// files, and registries.d (a file directly in it) and the nmstate
// directory are special cases for files no entry names.
func TestMatch416(t *testing.T) {
	var paths []string
	for _, r := range DefaultFiles(v416) {
		paths = append(paths, r.Path)
	}
	if len(paths) != 4 || paths[3] != RegistriesConfPath {
		t.Errorf("4.16 defaults %v", paths)
	}
	p := Merge(v416, files("/etc/containers", "/etc/containers/registries.conf.d/01-image-searchRegistries.conf"))
	for _, tc := range []struct {
		file, want, action string // want: the matching entry's path, "" for none
	}{
		{dropIn, dropIn, "None"},
		{"/etc/containers/storage.conf", "", ""},
		{RegistriesConfPath, RegistriesConfPath, "Special"},
		{"/etc/containers/registries.d/sigstore-registries.yaml", RegistriesDDir, "Reload - crio.service"},
		{"/etc/containers/registries.d/sub/x.yaml", "", ""},
		{"/etc/nmstate/openshift/applied", NMStateDir, "None"},
		{UserCABundlePath, "", ""},
	} {
		r, ok := p.Match(tc.file)
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s: matched %s, want no entry (reboot)", tc.file, r.Path)
		case tc.want != "" && (!ok || r.Path != tc.want || r.Actions[0].String() != tc.action):
			t.Errorf("%s: %v %+v, want %s (%s)", tc.file, ok, r, tc.want, tc.action)
		}
	}
	// A directory entry covers its files from 4.17.
	if r, ok := Merge(v417, files("/etc/containers")).Match("/etc/containers/storage.conf"); !ok || r.Path != "/etc/containers" {
		t.Errorf("4.17: %v %+v", ok, r)
	}
}
