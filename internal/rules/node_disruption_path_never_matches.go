package rules

import (
	"path"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/ndp"
)

var nodeDisruptionPathNeverMatches = &check.Rule{
	ID:       "node-disruption-path-never-matches",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A node-disruption file policy whose path the daemon never matches (relative, \"/\", a glob, a trailing \"/\" after a file).",
	Doc:      doc("node-disruption-path-never-matches"),
	Reads:    machineConfigurationReads,
	Check: func(p *check.Pass) {
		for _, o := range p.Objects(manifest.KindMachineConfiguration) {
			for i, f := range o.MachineConfiguration.Spec.NodeDisruptionPolicy.Files {
				why := ""
				switch {
				case !strings.HasPrefix(f.Path, "/"):
					why = "it is relative, and the daemon compares it with absolute paths"
				case path.Clean(f.Path) == "/":
					why = "\"/\" becomes the prefix \"//\", which no path has"
				case strings.ContainsAny(f.Path, "*?["):
					why = "the daemon compares strings, it expands no glob"
				}
				if why == "" {
					continue
				}
				p.Report(o, ndp.FilePath(i).Child("path"),
					"path %q never matches a changed file: %s; the files it was meant for take the release default or, without one, reboot the node; write the absolute file or directory (a directory covers every file under it)", f.Path, why)
			}
		}
	},
}
