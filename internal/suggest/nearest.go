package suggest

import (
	"path"
	"sort"
	"strings"
)

// Nearest returns up to n candidates close to s, closest first: names
// that start with s (a cluster name typed in part), then names
// whose last path element is s ("prod-east" for "overlays/prod-east"),
// then those within a few edits of s, whole or by last element (a third of
// s's length, at least two). Made for names like cluster paths, where
// listing every candidate would drown the useful ones.
func Nearest(s string, candidates []string, n int) []string {
	ls := strings.ToLower(s)
	limit := max(2, len(ls)/3)
	type scored struct {
		name   string
		d      int
		prefix bool // the name starts with what was typed
	}
	var out []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := Distance(ls, lc)
		if base := path.Base(lc); base == path.Base(ls) || strings.HasSuffix(lc, "/"+ls) {
			d = 0
		} else if bd := Distance(path.Base(ls), base); bd < d {
			d = bd
		}
		prefix := strings.HasPrefix(lc, ls) || strings.HasPrefix(path.Base(lc), path.Base(ls)) && path.Dir(lc) == path.Dir(ls)
		if d <= limit || prefix {
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
