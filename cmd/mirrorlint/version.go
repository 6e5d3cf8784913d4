package main

import (
	"regexp"
	"runtime/debug"
)

// version and commit are set by `make dist` with
// -ldflags "-X main.version=vX.Y.Z -X main.commit=SHA". A plain `go build`
// or `go install` leaves them empty and --version reads the build info
// instead: the module version `go install …@vX` records (or the one Go
// derives from the checkout's tag or commit) and the VCS revision.
var (
	version = "dev"
	commit  = ""
)

func buildInfo() *debug.BuildInfo {
	bi, _ := debug.ReadBuildInfo()
	return bi
}

// moduleVersion is the version --version reports: the one set with
// -ldflags, else the module version recorded in the binary, else "dev" (a
// build without version information records "(devel)").
func moduleVersion(ldflags string, bi *debug.BuildInfo) string {
	if ldflags != "dev" || bi == nil || bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		return ldflags
	}
	return bi.Main.Version
}

// pseudoCommit is the commit prefix at the end of a pseudo-version
// (v0.0.0-20260101120000-0123456789ab, v1.2.4-0.…, v1.3.0-rc.1.0.…,
// optionally +dirty): what
// `go install …@main` records instead of VCS settings.
var pseudoCommit = regexp.MustCompile(`(?:-|-0\.|\.0\.)\d{14}-([0-9a-f]{12})(?:\+dirty)?$`)

// buildCommit is the commit the binary was built from: the one set with
// -ldflags, else vcs.revision (a build inside a checkout; "+dirty" when
// the tree had changes), else the pseudo-version's commit, else "unknown".
func buildCommit(ldflags string, bi *debug.BuildInfo) string {
	if ldflags != "" {
		return ldflags
	}
	if bi == nil {
		return "unknown"
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		if dirty {
			rev += "+dirty"
		}
		return rev
	}
	if m := pseudoCommit.FindStringSubmatch(bi.Main.Version); m != nil {
		return m[1]
	}
	return "unknown"
}

// versionString is what --version prints after "mirrorlint version ".
func versionString(ldVersion, ldCommit string, bi *debug.BuildInfo) string {
	return moduleVersion(ldVersion, bi) + " (commit " + buildCommit(ldCommit, bi) + ")"
}
