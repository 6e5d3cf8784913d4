package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var tagMirrorTrust = &check.Rule{
	ID:       "tag-mirror-trust",
	Severity: check.Info,
	Origin:   check.OriginSurprise,
	Summary:  "ImageTagMirrorSet mirrors serve by-tag pulls, which the source cannot vouch for.",
	Doc:      doc("tag-mirror-trust"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, e := range mirrorEntries(c.Context) {
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
const payloadRepos = mco.ReleaseOrganization

// payloadScope reports whether a scope contains or lies inside the OCP
// release repositories.
func payloadScope(s string) bool {
	return scopes.IsNested(s, payloadRepos) || scopes.IsNested(payloadRepos, s)
}

// inPayload reports whether a scope lies inside the OCP release
// repositories (not merely encloses them, as quay.io does).
func inPayload(s string) bool { return scopes.IsNested(s, payloadRepos) }
