package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mirrororder"
	"github.com/mirrorlint/mirrorlint/internal/rules/schema"
)

var mirrorDuplicate = &check.Rule{
	ID:       "mirror-duplicate",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "The same mirror is listed twice in one entry.",
	Doc: `In ImageDigestMirrorSet and ImageTagMirrorSet, ` + "`mirrors`" + ` is an
` + "`x-kubernetes-list-type: set`" + `: the API server refuses a repeated value with
` + "`spec.imageDigestMirrors[0].mirrors[2]: Duplicate value: \"m.io/x\"`" + `.

ImageContentSourcePolicy has no list type, so the object is accepted, but MCO reads each
adjacent pair of mirrors as "try this one before that one". A repeat therefore adds an
edge back to an earlier mirror, a cycle that MCO breaks alphabetically: ` + "`[b, a, b]`" + `
renders as ` + "`a, b`" + `, not the intended ` + "`b, a`" + `. For ICSP this is a **warning** and the message
shows the order the nodes get.

**Fix:** list each mirror once, in the order you want them tried.`,
	Check: func(c *check.Context) {
		eachSchemaError(c, func(o *manifest.Object, e schema.Error) {
			if e.Type == schema.Duplicate && lastField(e.Path) == "mirrors" {
				c.Report(o, e.Path, "%s (mirrors is a set: list each mirror once)", e.Error())
			}
		})
		for _, e := range mirrorEntries(c) {
			if e.kind() != manifest.KindICSP {
				continue
			}
			seen := make(map[string]bool, len(e.mirrors))
			for k, m := range e.mirrors {
				if !seen[m] {
					seen[m] = true
					continue
				}
				order := mirrororder.Merge(e.source, [][]string{e.mirrors})
				f := c.Report(e.obj, e.mirrorPath(k),
					"mirror %q is listed twice for source %q; ImageContentSourcePolicy accepts the repeat but MCO turns it into an ordering cycle and renders: %s",
					m, e.source, strings.Join(order, ", "))
				capSeverity(f, check.Warning)
			}
		}
	},
}
