package project

import (
	"strings"
	"testing"
)

// TestAllReadersLinted: a file is fully linted when every cluster that
// reads it is selected and discovery looked at the tree it lies in.
func TestAllReadersLinted(t *testing.T) {
	base := gitops + "/base/idms-release.yaml"
	prodOwn := gitops + "/overlays/prod/idms-apps.yaml"
	lab := gitops + "/clusters/lab/idms.yaml"
	for _, tc := range []struct {
		opts Options
		want map[string]bool
	}{
		{Options{Paths: []string{gitops}}, map[string]bool{base: true, prodOwn: true, lab: true, "": true, "-": true}},
		{Options{Paths: []string{gitops}, Cluster: "overlays/prod"}, map[string]bool{base: false, prodOwn: true, lab: false, "": false}},
		{Options{Paths: []string{gitops + "/overlays/prod"}}, map[string]bool{base: false, prodOwn: true}},
		{Options{Stream: strings.NewReader("")}, map[string]bool{base: false, "-": true}},
	} {
		tc.opts.ConfigPath = "none"
		p, err := Open(tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		for file, want := range tc.want {
			if got := p.AllReadersLinted(file); got != want {
				t.Errorf("%+v: %q: %v, want %v", tc.opts, file, got, want)
			}
		}
	}
}
