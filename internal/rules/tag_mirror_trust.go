package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var tagMirrorTrust = &check.Rule{
	ID:       "tag-mirror-trust",
	Severity: check.Info,
	Origin:   check.OriginSurprise,
	Summary:  "ImageTagMirrorSet mirrors serve by-tag pulls, which the source cannot vouch for.",
	Doc: `A digest names exactly one image, so a digest mirror can only serve the right bytes.
A tag is a mutable name: a tag mirror may answer ` + "`app:1.2`" + ` with any image, stale or
tampered, and the node cannot tell (OpenShift enhancement #929, "Risks"). Use
ImageTagMirrorSet only for registries you control and keep the mirror in sync.

Release payload repositories (` + "`quay.io/openshift-release-dev`" + `) are pulled by digest and must
never be tag-mirrored: that is reported as a **warning**; other ITMS entries as info.

Adding or removing an ITMS mirror or source always drains the nodes (it is not a
"safe" registries.conf change for the Machine Config Daemon), unlike IDMS additions.`,
	Check: func(c *check.Context) {
		for _, e := range mirrorEntries(c) {
			if !e.tag || !e.realMirror() {
				continue
			}
			if payloadScope(e.source) {
				f := c.Report(e.obj, e.sourcePath(),
					"tag mirrors for the release payload repository %q: by-tag pulls can be answered with a different image than the source's, and payload images must only come by digest; use an ImageDigestMirrorSet", e.source)
				if f.Severity == check.Info {
					f.Severity = check.Warning
				}
				continue
			}
			c.Report(e.obj, e.sourcePath(),
				"tag mirrors for %q: a by-tag pull may get a different image than the source would serve; use only mirrors you control, and expect every change to this entry to drain the nodes", e.source)
		}
	},
}

// payloadScope reports whether a scope contains or lies inside the OCP
// release repositories.
func payloadScope(s string) bool {
	const rel = "quay.io/openshift-release-dev"
	return scopes.IsNested(s, rel) || scopes.IsNested(rel, s)
}
