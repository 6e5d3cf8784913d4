package main

import (
	"runtime/debug"
	"testing"
)

func TestBuildCommit(t *testing.T) {
	t.Parallel()
	const sha = "b167fa54a3ca9381d7c5eadaf4ca8ea737d19a27"
	vcs := func(modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261203140030-b167fa54a3ca"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: sha}, {Key: "vcs.modified", Value: modified}}}
	}
	for _, tc := range []struct {
		name, ldflags string
		bi            *debug.BuildInfo
		want          string
	}{
		{"make dist", "0123abc", vcs("false"), "0123abc"},
		{"go build in a clone", "", vcs("false"), sha},
		{"go build with changes", "", vcs("true"), sha + "+dirty"},
		{"go install …@main", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261203140030-b167fa54a3ca"}}, "b167fa54a3ca"},
		{"go install …@v1.3.0-rc.1 after a tag", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.3.0-rc.1.0.20261203140030-b167fa54a3ca"}}, "b167fa54a3ca"},
		{"go install …@v1.2.3", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "unknown"},
		{"no build info", "", nil, "unknown"},
	} {
		if got := buildCommit(tc.ldflags, tc.bi); got != tc.want {
			t.Errorf("%s: buildCommit = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := versionString("v1.2.3", "abc", nil); got != "v1.2.3 (commit abc)" {
		t.Errorf("versionString = %q", got)
	}
	if got := versionString("dev", "", vcs("false")); got != "v0.0.0-20261203140030-b167fa54a3ca (commit "+sha+")" {
		t.Errorf("versionString of a plain go build = %q", got)
	}
}
