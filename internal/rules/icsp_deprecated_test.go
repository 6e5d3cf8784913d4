package rules

import (
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// ImageContentSourcePolicy is deprecated from 4.13, where
// ImageDigestMirrorSet came: a 4.12 cluster has no other mirror kind to
// convert it to.
func TestICSPDeprecatedFrom413(t *testing.T) {
	set, err := manifest.Load([]string{"testdata/icsp-deprecated/bad"}, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for minor, want := range map[int]int{12: 0, 13: 1, 21: 1} {
		cl := &cluster.Cluster{Objects: set.Objects, Settings: cluster.Settings{Version: render.Version{Minor: minor, Patch: -1}}}
		fs, _, err := newEngine(t).Lint(cl)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range fs {
			if f.Rule == "icsp-deprecated" {
				n++
			}
		}
		if n != want {
			t.Errorf("4.%d: %d icsp-deprecated findings, want %d", minor, n, want)
		}
	}
}

// An ICSP an installer writes (a ZTP spoke before 4.14) has no file to
// convert: nothing is reported of it.
func TestICSPDeprecatedNotOfCreated(t *testing.T) {
	set, err := manifest.Load([]string{"testdata/icsp-deprecated/bad"}, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range set.Objects {
		o.Created = true
	}
	cl := &cluster.Cluster{Objects: set.Objects, Settings: cluster.Settings{Version: render.Version{Minor: 13, Patch: 30}}}
	fs, _, err := newEngine(t).Lint(cl)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if f.Rule == "icsp-deprecated" {
			t.Errorf("reported of a created ICSP: %v", f)
		}
	}
}
