package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/render"
)

var duplicateLocation = &check.Rule{
	ID:       "duplicate-location",
	Severity: check.Error,
	Origin:   check.OriginNode,
	Summary:  "Two registries.conf entries differ only by a trailing \"/\".",
	Doc:      doc("duplicate-location"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		byTrim := map[string]*mco.Registry{}
		for i := range c.Plan.Registries {
			e := &c.Plan.Registries[i]
			t := strings.TrimRight(e.Scope, "/")
			if t == e.Scope && byTrim[t] == nil {
				byTrim[t] = e
				continue
			}
			first := byTrim[t]
			if first == nil {
				byTrim[t] = e
				continue
			}
			switch {
			case first.Insecure != e.Insecure:
				reportSubject(c, e.At, []render.Subject{first.At}, "registry '%s' is defined multiple times with conflicting 'insecure' setting (%q and %q are one location to containers/image): every node rejects registries.conf; remove the trailing \"/\"", t, first.Scope, e.Scope)
			case first.Blocked != e.Blocked:
				reportSubject(c, e.At, []render.Subject{first.At}, "registry '%s' is defined multiple times with conflicting 'blocked' setting (%q and %q are one location to containers/image): every node rejects registries.conf; remove the trailing \"/\"", t, first.Scope, e.Scope)
			default:
				f := reportSubject(c, e.At, []render.Subject{first.At}, "%q and %q are one location to containers/image: the first entry wins and the other's mirrors are ignored; remove the trailing \"/\"", first.Scope, e.Scope)
				if f != nil {
					f.AtMost(check.Warning)
				}
			}
		}
	},
}
