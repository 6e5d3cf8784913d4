package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
)

var nestedSourceShadows = &check.Rule{
	ID:       "nested-source-shadows",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A source nested inside another source loses something the outer one provides.",
	Doc:      doc("nested-source-shadows"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		s := mirrorSets(c.Context)
		type info struct {
			never       bool
			digest, tag *mirrorSet
		}
		by := map[string]*info{}
		var order []string
		for _, set := range s.all {
			in := by[set.source]
			if in == nil {
				in = &info{}
				by[set.source] = in
				order = append(order, set.source)
			}
			if set.never {
				in.never = true
			}
			if set.tag {
				in.tag = set
			} else {
				in.digest = set
			}
		}
		for _, src := range order {
			child := by[src]
			var parentSrc string
			var parent *info
			for _, cand := range enclosing(src, true) {
				if p, ok := by[cand]; ok {
					parentSrc, parent = cand, p
					break
				}
			}
			if parent == nil {
				continue
			}
			at := child.digest
			if at == nil {
				at = child.tag
			}
			e := at.entries[0]
			report := func(format string, args ...any) {
				f := c.Report(e.obj, e.sourcePath(), format, args...)
				pe := parent.digest
				if pe == nil {
					pe = parent.tag
				}
				f.Also(pe.entries[0].obj, pe.entries[0].sourcePath())
			}
			switch {
			case parent.never && !child.never:
				report("%q is nested inside %q, which is NeverContactSource: only the most specific entry applies, so images under %q still contact the source; set mirrorSourcePolicy: NeverContactSource here too", src, parentSrc, src)
			case parent.digest != nil && child.digest == nil:
				report("%q is nested inside %q and has only tag mirrors: only the most specific entry applies, so by-digest pulls under %q get none of %q's digest mirrors", src, parentSrc, src, parentSrc)
			case parent.tag != nil && child.tag == nil:
				report("%q is nested inside %q and has only digest mirrors: only the most specific entry applies, so by-tag pulls under %q get none of %q's tag mirrors", src, parentSrc, src, parentSrc)
			}
		}
	},
}
