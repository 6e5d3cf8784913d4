package rules

import (
	"sort"

	"github.com/containers/image/v5/docker/reference"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
	"github.com/mirrorlint/mirrorlint/render"
)

var releaseSignaturesMirrored = &check.Rule{
	ID:       "release-signatures-mirrored",
	Severity: check.Info,
	Origin:   check.OriginSurprise,
	Summary:  "Release images come through mirrors on a cluster that verifies their signatures: mirror the signatures too.",
	Doc:      doc("release-signatures-mirrored"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		v := c.Settings.Version
		if v.Minor == 20 {
			objs := append(c.Objects(manifest.KindICSP), c.Objects(manifest.KindIDMS)...)
			if len(objs) == 0 {
				return
			}
			sort.SliceStable(objs, func(a, b int) bool { return objs[a].Name < objs[b].Name })
			c.Report(objs[0], manifest.Path{"metadata", "name"},
				"MCO 4.20 raises the admin-ack gate %s because ImageContentSourcePolicy/ImageDigestMirrorSet objects exist, so the update to 4.21 waits for an administrator's acknowledgement: %q", mco.SigstoreAckKey, mco.SigstoreAckMessage)
			return
		}
		if !c.Input.DefaultPolicy {
			return
		}
		repo := render.DefaultPolicyScope
		if ref, err := reference.ParseNamed(c.Settings.ReleaseImage); err == nil && scopes.IsNested(ref.Name(), render.DefaultPolicyScope) {
			repo = ref.Name()
		}
		for _, e := range mirrorEntries(c.Context) {
			if e.tag || e.source == "" || !scopes.IsNested(repo, e.source) || len(e.mirrors) == 0 {
				continue
			}
			c.Report(e.obj, e.path("source"),
				"the default ClusterImagePolicy %q makes the nodes verify Red Hat's sigstore signature of %s images, and these come through the mirrors of %s: the nodes look for the signatures in the mirrors (registries.d/sigstore-registries.yaml), so mirror them along with the images (oc-mirror does), or release pulls fail; a 4.20 cluster with ImageContentSourcePolicy/ImageDigestMirrorSet objects holds the update to 4.21 behind the admin-ack gate %s until an administrator confirms this",
				render.DefaultPolicyName, repo, e.source, mco.SigstoreAckKey)
			return
		}
	},
}
