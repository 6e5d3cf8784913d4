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
	Doc: `The cluster holds one object per kind and name (and namespace, for a namespaced kind):
two ImageDigestMirrorSets named ` + "`release`" + ` in one cluster's tree are one object. ` + "`oc apply -f DIR`" + `
applies the files in name order and each apply replaces what the previous one wrote, so
the last one wins and the other's mirrors are gone without an error; Argo CD keeps the last
one too and only raises a RepeatedResourceWarning; kustomize refuses to build the tree.

mirrorlint renders what the cluster would hold: the object read last (files in name order,
documents in file order), and reports every copy, saying which one is kept. This holds for
every kind it reads: ICSP, IDMS, ITMS, Image, MachineConfig.

**Fix:** give each object its own name, or merge the two into one.`,
	Check: func(c *check.Context) {
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
