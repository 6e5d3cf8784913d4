package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var handWrittenRegistriesConf = &check.Rule{
	ID:       "hand-written-registries-conf",
	Severity: check.Error,
	Origin:   check.OriginSurprise,
	Summary:  "A MachineConfig writes /etc/containers/registries.conf (or the search drop-in) by hand.",
	Doc: `MCO owns ` + "`/etc/containers/registries.conf`" + ` and
` + "`/etc/containers/registries.conf.d/01-image-searchRegistries.conf`" + `: it renders them from the
template plus the mirror objects into the MachineConfig ` + "`99-<pool>-generated-registries`" + `.
MachineConfigs are merged by name and a later name wins a path, so a hand-written file:

- in a MachineConfig named **before** ` + "`99-<pool>-generated-registries`" + ` (e.g.
  ` + "`50-worker-registries`" + `) is overwritten whenever MCO emits its file, that is as soon as any
  mirror object or Image registry setting exists;
- in one named **after** it (e.g. ` + "`99-worker-zz`" + `) replaces MCO's file and discards every
  ImageDigestMirrorSet, ImageTagMirrorSet, ICSP and Image registry setting.

Either way the cluster accepts it and nobody is told.

**Fix:** express the configuration as ImageDigestMirrorSet/ImageTagMirrorSet and Image
registrySources; for settings those cannot express, use a separate drop-in under
` + "`/etc/containers/registries.conf.d/`" + ` with another name.`,
	Check: func(c *check.Context) {
		for _, o := range c.Applied(manifest.KindMachineConfig) {
			files, _ := nestedList(o.Content, "spec", "config", "storage", "files")
			for i, f := range files {
				m, _ := f.(map[string]any)
				p, _ := m["path"].(string)
				if p != "/etc/containers/registries.conf" && p != "/etc/containers/registries.conf.d/01-image-searchRegistries.conf" {
					continue
				}
				role := "worker"
				if labels, ok := o.Content["metadata"].(map[string]any)["labels"].(map[string]any); ok {
					if r, ok := labels["machineconfiguration.openshift.io/role"].(string); ok && r != "" {
						role = r
					}
				}
				generated := "99-" + role + "-generated-registries"
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
