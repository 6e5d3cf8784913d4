package rules

import (
	"github.com/containers/image/v5/docker/reference"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var allowedIncomplete = &check.Rule{
	ID:       "allowed-incomplete",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "allowedRegistries leaves out registries the cluster itself needs.",
	Doc: `` + "`spec.registrySources.allowedRegistries`" + ` turns policy.json into an allow list: CRI-O
refuses to pull from anything else. Nothing checks that the list covers what the cluster
needs, and a gap shows up only when a node pulls: an upgrade, a new node, an operator
install. This rule checks for:

- the release payload repositories (from ` + "`--release-image`" + `, else
  ` + "`quay.io/openshift-release-dev`" + `);
- ` + "`registry.redhat.io`" + ` (operators and their catalogs);
- the internal image registry, ` + "`image-registry.openshift-image-registry.svc:5000`" + `;
- every mirror of every ImageDigestMirrorSet/ImageTagMirrorSet/ImageContentSourcePolicy.

**Fix:** add the missing scopes, or use ` + "`blockedRegistries`" + ` for a deny list instead.

` + "```yaml" + `
allowedRegistries:
- quay.io/openshift-release-dev
- registry.redhat.io
- image-registry.openshift-image-registry.svc:5000
- mirror.example.com
` + "```",
	Check: func(c *check.Context) {
		img, spec := imageCluster(c)
		if img == nil || len(spec.RegistrySources.AllowedRegistries) == 0 {
			return
		}
		allowed := newScopeSet(spec.RegistrySources.AllowedRegistries)
		need := []string{"quay.io/openshift-release-dev/ocp-release", "quay.io/openshift-release-dev/ocp-v4.0-art-dev"}
		if ri := c.Settings.ReleaseImage; ri != "" {
			if ref, err := reference.ParseNamed(ri); err == nil {
				need = []string{ref.Name()}
			}
		}
		need = append(need, "registry.redhat.io", "image-registry.openshift-image-registry.svc:5000")
		seen := map[string]bool{}
		for _, e := range mirrorEntries(c) {
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
