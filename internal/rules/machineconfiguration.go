package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var machineConfigurationReads = []string{string(manifest.KindMachineConfiguration)}
