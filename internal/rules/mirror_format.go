package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/rules/schema"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var mirrorFormat = &check.Rule{
	ID:       "mirror-format",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "An ImageDigestMirrorSet/ImageTagMirrorSet mirror does not match the CRD pattern.",
	Doc: `A mirror is a repository location, ` + "`host[:port][/path]`" + `, with the same pattern as a
source minus the wildcard form: no ` + "`*`" + `, tag, digest, URL scheme, trailing or doubled
` + "`/`" + `, ` + "`_`" + ` in the host or IPv6 literal. The API server refuses the object
(` + "`… in body should match '<regex>'`" + `) and MCO 4.16+ refuses to render the same value
(` + "`invalid format for mirror \"…\"`" + `). Upper case in the repository path is reported by
repository-lowercase.

**Fix:**

` + "```yaml" + `
mirrors:
- mirror.example.com:5000/ocp4/openshift4   # not https://mirror.example.com:5000/ocp4/openshift4/
` + "```",
	Check: func(c *check.Context) {
		eachSchemaError(c, func(o *manifest.Object, e schema.Error) {
			if e.Type != schema.Pattern || len(e.Path) < 2 || lastField(e.Path) != "mirrors" {
				return
			}
			if _, isIndex := e.Path[len(e.Path)-1].(int); !isIndex {
				return
			}
			v, _ := e.Value.(string)
			if lowercaseFixes(v, scopes.ValidMirror) {
				return
			}
			c.Report(o, e.Path, "%s", patternMessage(e.Error(), formatHint(v, false), "mirror-format"))
		})
	},
}
