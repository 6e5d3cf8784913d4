package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var neverContactBlocksTags = &check.Rule{
	ID:       "never-contact-blocks-tags",
	Severity: check.Info,
	Origin:   check.OriginSurprise,
	Summary:  "NeverContactSource on digest mirrors only (or tag mirrors only) breaks the other kind of pull.",
	Doc: `NeverContactSource makes MCO write ` + "`blocked = true`" + ` on the source's registries.conf entry.
That entry is shared by digest and tag pulls. If the source has only digest mirrors
(IDMS), a **by-tag** pull has no mirror to go to and the source is blocked, so it fails
with ` + "`registry … is blocked in /etc/containers/registries.conf or …conf.d`" + `. The reverse holds
for an ITMS with NeverContactSource and no digest mirrors: by-digest pulls fail.

That is right if nothing ever pulls that source by tag (release payloads are pulled by
digest, so their repositories under ` + "`quay.io/openshift-release-dev`" + ` are not
reported). It is also the standard disconnected set-up (the installer's
` + "`imageDigestSources`" + ` with ` + "`sourcePolicy: NeverContactSource`" + `), where the source is out of reach
anyway and a by-tag pull could not succeed with or without the block. So this is
information: it matters on a cluster that can reach the source and pulls it by tag.
` + "`image-pull-fails`" + ` reports the workloads in the tree that do pull such a source by tag.

**Fix:** add an ImageTagMirrorSet entry for the source (or an IDMS entry for the ITMS case),
or keep AllowContactingSource.`,
	Check: func(c *check.Context) {
		s := collectSets(mirrorEntries(c))
		for _, set := range s.all {
			if !set.never || payloadScope(set.source) {
				continue // release payloads are only ever pulled by digest
			}
			other, kind, missing := s.tag[set.source], "digest", "by-tag"
			if set.tag {
				other, kind, missing = s.digest[set.source], "tag", "by-digest"
			}
			if other != nil {
				continue
			}
			for _, e := range set.entries {
				if e.never() {
					c.Report(e.obj, e.policyPath(),
						"NeverContactSource blocks %q for every pull, but it has only %s mirrors: %s pulls of it fail (registry is blocked) even where the source could be reached; add the other mirror kind or allow contacting the source if anything pulls it %s",
						set.source, kind, missing, strings.Replace(missing, "-", " ", 1))
					break
				}
			}
		}
	},
}
