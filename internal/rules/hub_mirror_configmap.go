package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// hubMirrorConfigMap: see docs/hub-mirror-configmap.md; the check itself is in package inputs.
var hubMirrorConfigMap = inputRule(inputs.RuleHubConfigMap, check.Error, check.OriginTool,
	"AgentServiceConfig or AgentClusterInstall mirrorRegistryRef: a ConfigMap assisted-service cannot read (no registries.conf key, bad TOML, no mirrors).")
