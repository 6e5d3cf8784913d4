package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var duplicateLocation = &check.Rule{
	ID:       "duplicate-location",
	Severity: check.Error,
	Origin:   check.OriginNode,
	Summary:  "Two registries.conf entries differ only by a trailing \"/\".",
	Doc:      doc("duplicate-location"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		entries := registryEntries(c.Context, collectSets(mirrorEntries(c.Context)))
		byTrim := map[string]*regEntry{}
		for _, e := range entries {
			t := strings.TrimRight(e.scope, "/")
			if t == e.scope && byTrim[t] == nil {
				byTrim[t] = e
				continue
			}
			first := byTrim[t]
			if first == nil {
				byTrim[t] = e
				continue
			}
			var f *check.Finding
			switch {
			case first.insecure != e.insecure:
				f = c.Report(e.at.obj, e.at.path, "registry '%s' is defined multiple times with conflicting 'insecure' setting (%q and %q are one location to containers/image): every node rejects registries.conf; remove the trailing \"/\"", t, first.scope, e.scope)
			case first.blocked != e.blocked:
				f = c.Report(e.at.obj, e.at.path, "registry '%s' is defined multiple times with conflicting 'blocked' setting (%q and %q are one location to containers/image): every node rejects registries.conf; remove the trailing \"/\"", t, first.scope, e.scope)
			default:
				f = c.Report(e.at.obj, e.at.path, "%q and %q are one location to containers/image: the first entry wins and the other's mirrors are ignored; remove the trailing \"/\"", first.scope, e.scope)
				f.AtMost(check.Warning)
			}
			f.Also(first.at.obj, first.at.path)
		}
	},
}
