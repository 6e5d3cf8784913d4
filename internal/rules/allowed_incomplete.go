package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var allowedIncomplete = &check.Rule{
	ID:       "allowed-incomplete",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "allowedRegistries leaves out registries the cluster itself needs.",
	Doc:      doc("allowed-incomplete"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		img, spec := imageCluster(c.Context)
		if img == nil || len(spec.RegistrySources.AllowedRegistries) == 0 {
			return
		}
		allowed := newScopeSet(spec.RegistrySources.AllowedRegistries)
		need := append(c.Plan.ReleaseRepositories(), "registry.redhat.io", "image-registry.openshift-image-registry.svc:5000")
		seen := map[string]bool{}
		for _, e := range mirrorEntries(c.Context) {
			for _, m := range e.mirrors {
				if m != e.source && !seen[m] {
					seen[m] = true
					need = append(need, m)
				}
			}
		}
		var missing []string
		for _, n := range need {
			if !allowed.encloses(n) {
				missing = append(missing, n)
			}
		}
		if len(missing) == 0 {
			return
		}
		c.Report(img, manifest.Path{"spec", "registrySources", "allowedRegistries"},
			"allowedRegistries rejects every image outside the list, and it does not cover %d location(s) the cluster pulls from: %s",
			len(missing), quoteList(missing, 5))
	},
}
