package rules

import (
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var mirrorOrderConflict = &check.Rule{
	ID:       "mirror-order-conflict",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "Several mirror lists for one source disagree on the order, or do not determine it.",
	Doc:      doc("mirror-order-conflict"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		s := mirrorSets(c.Context)
		for _, set := range s.all {
			if len(set.entries) < 2 {
				continue
			}
			lists := set.lists()
			merged := set.merged()
			full := merged
			if !slices.Contains(full, set.source) {
				full = append(append([]string(nil), merged...), set.source)
			}
			pos := make(map[string]int, len(full))
			for i, m := range full {
				pos[m] = i
			}
			// A contradiction: some list whose own order the result breaks.
			var broken int = -1
			for i, l := range lists {
				if !keepsOrder(l, pos) {
					broken = i
					break
				}
			}
			kind := "digest"
			if set.tag {
				kind = "tag"
			}
			var f *check.Finding
			switch {
			case broken >= 0:
				e := set.entries[broken]
				f = c.Report(e.obj, e.path("mirrors"),
					"%d entries give %s mirrors for %q in contradicting orders (a cycle); MCO breaks it alphabetically and renders: %s",
					len(lists), kind, set.source, strings.Join(merged, ", "))
				for i, o := range set.entries {
					if i != broken {
						f.Also(o.obj, o.path("mirrors"))
					}
				}
			case !determined(full, lists, set.source):
				e := set.entries[1]
				f = c.Report(e.obj, e.path("mirrors"),
					"%d entries give %s mirrors for %q without a common order; MCO orders the undetermined mirrors alphabetically and renders: %s",
					len(lists), kind, set.source, strings.Join(merged, ", "))
				for i, o := range set.entries {
					if i != 1 {
						f.Also(o.obj, o.path("mirrors"))
					}
				}
			}
		}
	},
}

// keepsOrder reports whether the positions respect the list's own order
// (a repeated mirror inside one list is mirror-duplicate's business).
func keepsOrder(l []string, pos map[string]int) bool {
	last := -1
	seen := map[string]bool{}
	for _, m := range l {
		if seen[m] {
			continue
		}
		seen[m] = true
		if pos[m] < last {
			return false
		}
		last = pos[m]
	}
	return true
}

// determined reports whether the lists force the order: a topological
// order is the only one exactly when every two consecutive nodes are joined
// by an edge.
func determined(order []string, lists [][]string, source string) bool {
	edges := map[[2]string]bool{}
	for _, l := range lists {
		for i := 0; i+1 < len(l); i++ {
			edges[[2]string{l[i], l[i+1]}] = true
		}
		if len(l) > 0 && !slices.Contains(l, source) {
			edges[[2]string{l[len(l)-1], source}] = true
		}
	}
	for i := 0; i+1 < len(order); i++ {
		if !edges[[2]string{order[i], order[i+1]}] {
			return false
		}
	}
	return true
}
