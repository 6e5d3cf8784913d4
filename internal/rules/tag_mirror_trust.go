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

Release payload images are only ever pulled by digest, and a tag mirror
(` + "`pull-from-mirror = \"tag-only\"`" + `) never serves a digest pull: an ITMS entry for
` + "`quay.io/openshift-release-dev/ocp-release`" + ` (oc-mirror v2 writes one, for the release
image's tag) neither helps nor harms the payload. Like every ITMS entry it is reported as
information only.

Adding or removing an ITMS mirror or source always drains the nodes (it is not a
"safe" registries.conf change for the Machine Config Daemon), unlike IDMS additions.`,
	Check: func(c *check.Context) {
		for _, e := range mirrorEntries(c) {
			if !e.tag || !e.realMirror() {
				continue
			}
			if inPayload(e.source) {
				c.Report(e.obj, e.sourcePath(),
					"tag mirrors for %q serve only by-tag pulls of it (the release payload itself is pulled by digest, which tag mirrors never serve); a by-tag pull may get a different image than the source would serve", e.source)
				continue
			}
			c.Report(e.obj, e.sourcePath(),
				"tag mirrors for %q: a by-tag pull may get a different image than the source would serve; use only mirrors you control, and expect every change to this entry to drain the nodes", e.source)
		}
	},
}

// payloadRepos holds the OCP release repositories: the release image and
// the images it references.
const payloadRepos = "quay.io/openshift-release-dev"

// payloadScope reports whether a scope contains or lies inside the OCP
// release repositories.
func payloadScope(s string) bool {
	return scopes.IsNested(s, payloadRepos) || scopes.IsNested(payloadRepos, s)
}

// inPayload reports whether a scope lies inside the OCP release
// repositories (not merely encloses them, as quay.io does).
func inPayload(s string) bool { return scopes.IsNested(s, payloadRepos) }
