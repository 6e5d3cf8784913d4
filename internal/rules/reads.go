package rules

import "github.com/mirrorlint/mirrorlint/internal/manifest"

// modelled are the kinds the loader decodes into API types, which is what
// a rule reads when it reads the render, the mirror entries or
// Context.Objects: each rule writes its Reads in its literal (a test fails
// for one that does not), and the pre-commit prefilter leaves files
// holding none of the kinds the enabled rules read unparsed.
var modelled = []string{
	string(manifest.KindICSP), string(manifest.KindIDMS), string(manifest.KindITMS),
	string(manifest.KindImage), string(manifest.KindMachineConfig),
	string(manifest.KindClusterImagePolicy), string(manifest.KindImagePolicy),
	string(manifest.KindFeatureGate), string(manifest.KindClusterVersion),
}

// withWorkloads adds the kinds that pull images (workloads, CatalogSources)
// for the rule that checks the images the nodes pull against the render.
var withWorkloads = append(append([]string(nil), modelled...), manifest.ImageKinds()...)
