package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/ndp"
)

var machineConfigurationName = &check.Rule{
	ID:       "machineconfiguration-name",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A MachineConfiguration is not named \"cluster\", so MCO ignores its node-disruption policies.",
	Doc:      doc("machineconfiguration-name"),
	Reads:    machineConfigurationReads,
	Check: func(p *check.Pass) {
		for _, o := range p.Objects(manifest.KindMachineConfiguration) {
			if o.Name != ndp.ObjectName {
				p.Report(o, manifest.Path{"metadata", "name"},
					"MachineConfiguration %q is ignored: MCO reads only the one named \"cluster\", so its node-disruption policies never apply and the nodes drain and reboot as the release defaults say; name it \"cluster\" (one object for every pool)", o.Name)
			}
		}
	},
}
