package rules

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var payloadBlocked = &check.Rule{
	ID:       "payload-blocked",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A blocked registry contains the release payload: MCO silently skips it, or nodes cannot pull the payload.",
	Doc:      doc("payload-blocked"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		img, spec := imageCluster(c.Context)
		pl := c.Plan.Payload
		if pl.Repository == "" || img == nil {
			return // no release image, or release-image-invalid
		}
		blocked := scopeList{"blockedRegistries", spec.RegistrySources.BlockedRegistries}
		for _, i := range pl.ComponentsBlocked {
			c.Report(img, blocked.path(i),
				"%q blocks the payload's component repository %s, which has no digest mirror outside the blocked scopes; MCO only protects the release repository, so nodes cannot pull the release payload's images (add an ImageDigestMirrorSet for it)", blocked.values[i], pl.Components)
		}
		skipped := make([]string, len(pl.Dropped))
		for k, i := range pl.Dropped {
			skipped[k] = blocked.values[i]
		}
		for k, i := range pl.Dropped {
			c.Report(img, blocked.path(i),
				"error adding %s to blocked registries, cannot block the repository being used by the payload, skipping: MCO silently drops %q from registries.conf and policy.json because the release repository %s has no digest mirror outside the blocked scopes, so it stays reachable",
				fmt.Sprintf("%q", skipped), skipped[k], pl.Repository)
		}
	},
}
