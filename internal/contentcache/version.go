package contentcache

import (
	"debug/elf"
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// Version names the running build for the cache: the main module's path
// and version and the Go build ID of the executable, which changes with
// any change to the code or the toolchain that built it. "" when the build
// cannot be named for certain (no build ID readable, a non-ELF system and
// a modified or unversioned source tree): callers then leave the cache off
// rather than risk reading another build's results.
func Version() string {
	versionOnce.Do(func() { version = readVersion() })
	return version
}

var (
	versionOnce sync.Once
	version     string
)

func readVersion() string {
	mod := "unknown"
	var rev string
	modified := true
	if bi, ok := debug.ReadBuildInfo(); ok {
		mod = bi.Main.Path + "@" + bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if id := buildID(); id != "" {
		return mod + " " + id
	}
	// Without a build ID only a released version or a clean commit
	// names the code.
	if rev != "" && !modified {
		return mod + " " + rev
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" && !strings.Contains(bi.Main.Version, "+dirty") {
		return mod
	}
	return ""
}

// buildID reads the Go build ID note of the running executable (ELF).
func buildID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return ""
	}
	data, err := s.Data()
	if err != nil || len(data) < 16 {
		return ""
	}
	// An ELF note: namesz, descsz, type, "Go\x00\x00", then the ID.
	return strings.TrimRight(string(data[16:]), "\x00")
}
