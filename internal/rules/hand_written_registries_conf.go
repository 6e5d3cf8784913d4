package rules

import (
	"path"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
)

var handWrittenRegistriesConf = &check.Rule{
	ID:       "hand-written-registries-conf",
	Severity: check.Error,
	Origin:   check.OriginSurprise,
	Summary:  "A MachineConfig writes /etc/containers/registries.conf (or the search drop-in) by hand, or a drop-in whose registries replace those MCO renders.",
	Doc:      doc("hand-written-registries-conf"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, o := range c.Applied(manifest.KindMachineConfig) {
			files, _ := nestedList(o.Content, "spec", "config", "storage", "files")
			for i, f := range files {
				m, _ := f.(map[string]any)
				p, _ := m["path"].(string)
				if path.Dir(p) == path.Dir(nodefiles.SearchDropInPath) && p != nodefiles.SearchDropInPath {
					reportReplacedRegistries(c, o, i, p, m)
					continue
				}
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

// reportReplacedRegistries reports the [[registry]] tables of a
// registries.conf.d drop-in that replace an entry MCO renders: the node
// reads the drop-ins after registries.conf, and a table with the prefix
// of an earlier one replaces it whole (containers/image merges the
// registries by prefix), so the mirrors MCO wrote for it are not used. A
// drop-in for other registries is the place for settings the mirror
// objects cannot express, and is not reported.
func reportReplacedRegistries(c *check.Pass, o *manifest.Object, i int, p string, file map[string]any) {
	conf := c.Registries()
	if conf == nil {
		return
	}
	rendered := map[string][]string{}
	for k := range conf.Registries {
		r := &conf.Registries[k]
		var mirrors []string
		for _, m := range r.Mirrors {
			mirrors = append(mirrors, m.Location)
		}
		rendered[mco.RegistryScope(r)] = mirrors
	}
	src, _ := manifest.NestedString(file, "contents", "source")
	dropIn, err := nodefiles.Decode(dataURL(src))
	if err != nil {
		return // the node refuses it: not this rule's to say
	}
	for k := range dropIn.Registries {
		prefix := mco.RegistryScope(&dropIn.Registries[k])
		mirrors, ok := rendered[prefix]
		if !ok {
			continue
		}
		c.Report(o, manifest.Path{"spec", "config", "storage", "files", i, "path"},
			"MachineConfig %q writes the drop-in %s, whose [[registry]] %q replaces the entry MCO renders for it (the node reads drop-ins after registries.conf, and a table with the same prefix replaces the earlier one whole): MCO's mirrors for it (%s) are not used on these nodes; put these settings in the ImageDigestMirrorSet/ImageTagMirrorSet instead, or drop the table",
			o.Name, p, prefix, strings.Join(mirrors, ", ")).AtMost(check.Warning)
	}
}
