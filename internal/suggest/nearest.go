package suggest

import (
	"path"
	"sort"
	"strings"
)

// Nearest returns up to n candidates close to s, closest first: names
// that start with s (a cluster name typed in part; when s names no
// directory, also names whose last element starts with it), then names
// whose last path element is s ("prod-east" for "overlays/prod-east"),
// then those within a few edits of s, whole or by last element (a third
// of the length typed, whole or of its last element, at least two). Made
// for names like cluster paths, where listing every candidate would drown
// the useful ones.
func Nearest(s string, candidates []string, n int) []string {
	ls := strings.ToLower(s)
	lb := path.Base(ls)
	limit, baseLimit := max(2, len(ls)/3), max(2, len(lb)/3)
	type scored struct {
		name   string
		d      int
		prefix bool // the name starts with what was typed
	}
	var out []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		base := path.Base(lc)
		d := Distance(ls, lc)
		near := d <= limit
		if base == lb || strings.HasSuffix(lc, "/"+ls) {
			d, near = 0, true
		} else if bd := Distance(lb, base); bd <= baseLimit {
			// The last elements are measured against the last element
			// typed, so a short one is not near every short name.
			d, near = min(d, bd), true
		}
		// A name typed without a directory is the start of a cluster's
		// last element as well ("sno" for "ztp-spoke/sno-a"); with one,
		// of the names in that directory.
		prefix := strings.HasPrefix(lc, ls) ||
			strings.HasPrefix(base, lb) && (path.Dir(lc) == path.Dir(ls) || !strings.Contains(ls, "/"))
		if near || prefix {
			out = append(out, scored{c, d, prefix})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].prefix != out[j].prefix {
			return out[i].prefix
		}
		if out[i].d != out[j].d {
			return out[i].d < out[j].d
		}
		return out[i].name < out[j].name
	})
	var names []string
	for i := 0; i < len(out) && i < n; i++ {
		names = append(names, out[i].name)
	}
	return names
}
