package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
)

var handWrittenRegistriesConf = &check.Rule{
	ID:       "hand-written-registries-conf",
	Severity: check.Error,
	Origin:   check.OriginSurprise,
	Summary:  "A MachineConfig writes /etc/containers/registries.conf (or the search drop-in) by hand.",
	Doc:      doc("hand-written-registries-conf"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, o := range c.Applied(manifest.KindMachineConfig) {
			files, _ := nestedList(o.Content, "spec", "config", "storage", "files")
			for i, f := range files {
				m, _ := f.(map[string]any)
				p, _ := m["path"].(string)
				if p != nodefiles.RegistriesConfPath && p != nodefiles.SearchDropInPath {
					continue
				}
				generated := generatedRegistriesName(o)
				if o.Name == generated {
					continue // a copy of MCO's own output
				}
				effect := "it sorts before " + generated + ", so MCO's file overwrites it whenever MCO writes one"
				if o.Name > generated {
					effect = "it sorts after " + generated + ", so it replaces MCO's file and discards every mirror object and Image registry setting"
				}
				c.Report(o, manifest.Path{"spec", "config", "storage", "files", i, "path"},
					"MachineConfig %q writes %s, which MCO renders itself: %s; use ImageDigestMirrorSet/ImageTagMirrorSet and Image registrySources instead", o.Name, p, effect)
			}
		}
	},
}
