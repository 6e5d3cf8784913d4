package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var repositoryLowercase = &check.Rule{
	ID:       "repository-lowercase",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "A source or mirror has upper-case letters in its repository path.",
	Doc: `Repository names are lower case in the OCI distribution spec; only the host may be
written in upper case. The consequences depend on the kind:

- **ImageDigestMirrorSet / ImageTagMirrorSet:** the CRD pattern refuses the value
  (` + "`… in body should match '<regex>'`" + `).
- **ImageContentSourcePolicy, OpenShift 4.16 and later:** MCO refuses to render
  (` + "`invalid format for source \"…\"`" + ` / ` + "`invalid format for mirror \"…\"`" + `). It only logs
  this and keeps the old registries configuration: every later mirror change silently
  stops reaching the nodes.
- **ImageContentSourcePolicy up to 4.15:** accepted, but the entry never works: image
  references are lower case, so the source never matches, and pulls from the mirror fail
  with ` + "`repository name must be lowercase`" + `. Reported as a warning for those versions.

The message shows the lower-cased spelling. Registries themselves (Quay, Harbor,
Artifactory) store repositories in lower case, so it is almost always the right fix.

` + "```yaml" + `
source: quay.io/myorg/app      # not quay.io/MyOrg/App
mirrors: [LOCALHOST:5000/myorg/app]   # an upper-case host is fine
` + "```",
	Check: func(c *check.Context) {
		v := c.Settings.Version
		icspRefused := v.AtLeast(16)
		for _, e := range mirrorEntries(c) {
			icsp := e.kind() == manifest.KindICSP
			report := func(p manifest.Path, what, val string) {
				switch {
				case !icsp:
					c.Report(e.obj, p, "repository path of %s %q has upper-case letters; the API server refuses it (only the host may be upper case): write %q", what, val, lowerPath(val))
				case icspRefused:
					c.Report(e.obj, p, "repository path of %s %q has upper-case letters; MCO 4.16+ refuses to render (invalid format for %s %q) and keeps the old registries.conf: write %q", what, val, what, val, lowerPath(val))
				default:
					f := c.Report(e.obj, p, "repository path of %s %q has upper-case letters; image references are lower case, so this never works (MCO 4.16+ refuses it outright): write %q", what, val, lowerPath(val))
					capSeverity(f, check.Warning)
				}
			}
			if hasUpperPath(e.source) {
				report(e.sourcePath(), "source", e.source)
			}
			for k, m := range e.mirrors {
				if hasUpperPath(m) {
					report(e.mirrorPath(k), "mirror", m)
				}
			}
		}
	},
}
