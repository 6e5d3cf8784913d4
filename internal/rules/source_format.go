package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/rules/schema"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var sourceFormat = &check.Rule{
	ID:       "source-format",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "An ImageDigestMirrorSet/ImageTagMirrorSet source does not match the CRD pattern.",
	Doc: `A source is a registry scope: ` + "`host[:port][/path]`" + `, or a wildcard ` + "`*.example.com`" + `.
The CRD pattern (openshift/api types_image_digest_mirror_set.go) refuses a tag or a
digest (` + "`@sha256:…`" + `: mirrors apply to whole repositories), a URL scheme, a trailing or
doubled ` + "`/`" + `, ` + "`_`" + ` in the host, IPv6 literals, white space, and a wildcard anywhere but as
the whole first host label. The API server answers
` + "`spec.imageDigestMirrors[0].source: Invalid value: \"…\": … in body should match '<regex>'`" + `,
and MCO 4.16+ applies the same pattern when rendering. Upper case in the repository
path is reported by repository-lowercase instead.

Up to OpenShift 4.15, MCO also refuses wildcard sources (` + "`wildcard entries are not supported\nwith mirror configuration`" + `) even though the API accepts them; this rule reports that when
` + "`--openshift-version`" + ` is 4.15 or older.

**Fix:** write the repository, not an image reference.

` + "```yaml" + `
- source: registry.redhat.io/ubi9/ubi     # not registry.redhat.io/ubi9/ubi@sha256:…
  mirrors: [mirror.example.com/ubi9/ubi]
` + "```",
	Check: func(c *check.Context) {
		eachSchemaError(c, func(o *manifest.Object, e schema.Error) {
			if e.Type != schema.Pattern || lastField(e.Path) != "source" {
				return
			}
			v, _ := e.Value.(string)
			if lowercaseFixes(v, scopes.ValidSource) {
				return // repository-lowercase says it better
			}
			c.Report(o, e.Path, "%s", patternMessage(e.Error(), formatHint(v, true), "source-format"))
		})
		if c.Settings.Version.AtLeast(16) {
			return
		}
		for _, e := range mirrorEntries(c) {
			if e.kind() != manifest.KindICSP && strings.Contains(e.source, "*") && scopes.ValidSource(e.source) {
				c.Report(e.obj, e.sourcePath(),
					"wildcard entries are not supported with mirror configuration %q: MCO of OpenShift %s refuses wildcard sources (4.16 and later accept them)",
					e.source, c.Settings.Version)
			}
		}
	},
}
