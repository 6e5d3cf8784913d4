package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var nestedCopyWrongAncestor = &check.Rule{
	ID:       "nested-copy-wrong-ancestor",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A mirrorless insecure/blocked scope copies mirrors from the first-sorted enclosing source, not the nearest.",
	Doc:      doc("nested-copy-wrong-ancestor"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		img, _ := imageCluster(c.Context)
		if img == nil {
			return
		}
		s := mirrorSets(c.Context)
		if len(s.all) < 2 {
			return
		}
		for _, r := range c.Plan.Registries {
			if r.CopyFrom < 0 || r.At.Kind != string(manifest.KindImage) {
				continue
			}
			used := s.all[r.CopyFrom]
			if scopes.IsWildcard(used.source) {
				continue // wildcard-source-nested: MCO refuses
			}
			near := nearestSource(s, r.Scope)
			if near == nil || near == used {
				continue
			}
			suffix := r.Scope[len(used.source):]
			got := used.merged()
			for j := range got {
				got[j] += suffix
			}
			f := c.Report(img, manifest.ParsePath(r.At.Path),
				"%q has no mirrors of its own, so MCO copies them from the first-sorted enclosing source %q (giving %s), not from the nearest %q",
				r.Scope, used.source, quoteList(got, 3), near.source)
			f.Also(used.entries[0].obj, used.entries[0].sourcePath())
			f.Also(near.entries[0].obj, near.entries[0].sourcePath())
		}
	},
}

// nearestSource is the most specific set whose source strictly encloses
// scope (the digest set when a source has both), nil when none does.
func nearestSource(s *sets, scope string) *mirrorSet {
	for _, cand := range enclosing(scope, true) {
		if set, ok := s.digest[cand]; ok {
			return set
		}
		if set, ok := s.tag[cand]; ok {
			return set
		}
	}
	return nil
}
