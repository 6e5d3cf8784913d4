package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/ndp"
)

var machineConfigurationInvalid = &check.Rule{
	ID:       "machineconfiguration-invalid",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "The API server refuses a MachineConfiguration (node-disruption policies): the cluster keeps the previous one.",
	Doc:      doc("machineconfiguration-invalid"),
	Reads:    machineConfigurationReads,
	Check: func(p *check.Pass) {
		for _, o := range p.All() {
			if o.Kind != manifest.KindMachineConfiguration || o.APIVersion != manifest.KindMachineConfiguration.APIVersion() || o.Content == nil {
				continue
			}
			for _, r := range ndp.Validate(o) {
				msg := r.Message + "; the API server refuses the object, so the cluster keeps its previous node-disruption policies (or the release defaults) and drains as they say"
				if r.Path == nil {
					p.Report(o, nil, "%s", msg)
				} else {
					p.Report(o, r.Path, "%s", msg)
				}
			}
		}
	},
}
