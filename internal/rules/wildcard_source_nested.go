package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var wildcardSourceNested = &check.Rule{
	ID:       "wildcard-source-nested",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "A wildcard source with mirrors encloses an Image insecure/blocked scope that has no mirrors.",
	Doc:      doc("wildcard-source-nested"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		s := mirrorSets(c.Context)
		// The mirrorless Image scopes whose first enclosing set (the one
		// MCO copies from) has a wildcard source, by set, in MCO's order.
		failing := map[int][]mco.Registry{}
		var order []int
		for _, r := range c.Plan.Registries {
			if r.CopyFrom < 0 || r.At.Kind != mco.KindImage || !scopes.IsWildcard(s.all[r.CopyFrom].source) {
				continue
			}
			if _, ok := failing[r.CopyFrom]; !ok {
				order = append(order, r.CopyFrom)
			}
			failing[r.CopyFrom] = append(failing[r.CopyFrom], r)
		}
		for _, k := range order {
			set := s.all[k]
			at := set.entries[0]
			var nested []string
			for _, r := range failing[k] {
				nested = append(nested, r.Scope)
			}
			f := c.Report(at.obj, at.sourcePath(),
				"internal error: mirrorsAdjustedForNestedScope for a wildcard scope %q: MCO cannot copy this wildcard source's mirrors to the nested Image scope(s) %s, refuses to render and keeps the old registries.conf",
				set.source, quoteList(nested, 3))
			for _, r := range failing[k] {
				if o := c.SubjectObject(r.At); o != nil {
					f.Also(o, manifest.ParsePath(r.At.Path))
				}
			}
		}
	},
}
