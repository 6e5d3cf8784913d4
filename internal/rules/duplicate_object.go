package rules

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var duplicateObject = &check.Rule{
	ID:       "duplicate-object",
	Severity: check.Error,
	Origin:   check.OriginSurprise,
	Summary:  "Two objects of one kind share a name in a cluster: the last one applied replaces the other.",
	Doc:      doc("duplicate-object"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, g := range check.Duplicates(c.Cluster.Objects) {
			kept := g[len(g)-1]
			for _, o := range g {
				var f *check.Finding
				if o == kept {
					f = c.Report(o, manifest.Path{"metadata", "name"},
						"%s is defined %d times in this cluster (also at %s): the cluster holds one object per name, so this one, applied last, replaces the others; mirrorlint renders with it",
						kindName(o), len(g), others(g, o))
				} else {
					f = c.Report(o, manifest.Path{"metadata", "name"},
						"%s is defined again at %s: the cluster holds one object per name, so the one applied last (%s) replaces this one, whose content is lost; mirrorlint renders without it",
						kindName(o), others(g, o), kept.Locate(manifest.Path{"metadata", "name"}))
				}
				for _, x := range g {
					if x != o {
						f.Also(x, manifest.Path{"metadata", "name"})
					}
				}
			}
		}
	},
}

func kindName(o *manifest.Object) string {
	id := check.IdentityOf(o)
	if id.Namespace != "" {
		return fmt.Sprintf("%s %s/%s", o.Kind, id.Namespace, o.Name)
	}
	return o.Ref()
}

// others lists the positions of the group's other members.
func others(g []*manifest.Object, self *manifest.Object) string {
	var out []string
	for _, o := range g {
		if o != self {
			out = append(out, o.Locate(manifest.Path{"metadata", "name"}).String())
		}
	}
	return quoteList(out, 3)
}
