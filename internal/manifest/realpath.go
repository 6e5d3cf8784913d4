package manifest

import (
	"math"
	"path"
	"path/filepath"
	"strings"
)

// RealPath is p made absolute and symlink-free, as far as it exists: the
// form in which paths from git, the command line, kustomize origins and the
// loader compare equal.
func RealPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// Lookup returns the value at p inside plain data (an Object's Content):
// map keys for strings, slice indexes for ints.
func (p Path) Lookup(v any) (any, bool) {
	for _, e := range p {
		switch e := e.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[e]; !ok {
				return nil, false
			}
		case int:
			s, ok := v.([]any)
			if !ok || e < 0 || e >= len(s) {
				return nil, false
			}
			v = s[e]
		default:
			return nil, false
		}
	}
	return v, true
}

// Within reports whether p is dir or lies inside it, and p's path relative
// to dir ("." for dir itself). Both must be in the same form (absolute, or
// both relative to one directory). A name that merely starts with two
// dots ("..foo") is inside.
func Within(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// Closeness is how near files a and b lie in a tree: the number of
// directory elements their paths share from the start, the most for one
// file. Of several objects of one name a reference may mean (every hub's
// ConfigMap named after the documentation's example), the one nearest the
// reference is the one applied with it.
func Closeness(a, b string) int {
	a, b = filepath.ToSlash(a), filepath.ToSlash(b)
	if a == b {
		return math.MaxInt
	}
	da, db := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
	n := 0
	for n < len(da) && n < len(db) && da[n] == db[n] {
		n++
	}
	return n
}

// Nearest returns the one of cands nearest file (see Closeness): in the
// same file, else in the directory sharing the most leading elements with
// file's; the first in order among equals, nil for none.
func Nearest(file string, cands []*Object) *Object {
	var best *Object
	bestScore := -1
	for _, c := range cands {
		if s := Closeness(file, c.File); s > bestScore {
			best, bestScore = c, s
		}
	}
	return best
}
