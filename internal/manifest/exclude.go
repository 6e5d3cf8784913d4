package manifest

import (
	"path"
	"strings"
)

// excluded reports whether the slash path rel matches an Exclude pattern.
func (w *walker) excluded(rel string) bool {
	for _, p := range w.exclude {
		if matchExclude(p, rel) {
			return true
		}
	}
	return false
}

// excludedPath checks every leading part of an explicit file argument, so
// "vendor" excludes vendor/x.yaml given on the command line as it would in
// a walk (where the directory is matched before it is entered).
func (w *walker) excludedPath(p string) bool {
	p = strings.TrimPrefix(p, "./")
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && i > 0 && w.excluded(p[:i]) {
			return true
		}
	}
	return w.excluded(p)
}

// matchExclude matches an Exclude pattern against a slash path, as
// MatchGlob does; only a leading "./" of the path is dropped.
func matchExclude(pattern, rel string) bool {
	return MatchGlob(pattern, strings.TrimPrefix(rel, "./"))
}

// MatchGlob matches a pattern against a slash path. A pattern without a
// slash is compared with the base name (so "vendor" or "*.tmpl.yaml" work at
// any depth, as in .gitignore); otherwise it is anchored at the root and
// "**" stands for any number of directories while "*" stays within one. A
// bad pattern matches nothing. Exclude patterns and the config's ignore
// paths (lint.GlobMatch) share it so that one pattern means the same in both.
func MatchGlob(pattern, rel string) bool {
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(rel))
		return ok
	}
	return matchSegments(strings.Split(pattern, "/"), strings.Split(rel, "/"))
}

func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			pat = pat[1:]
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegments(pat, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
