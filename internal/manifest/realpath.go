package manifest

import "path/filepath"

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
