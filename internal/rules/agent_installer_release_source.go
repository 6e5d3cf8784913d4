package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// agentInstallerReleaseSource: see docs/agent-installer-release-source.md; the check itself is in package inputs.
var agentInstallerReleaseSource = inputRule(inputs.RuleAgentReleaseSource, check.Warning, check.OriginSurprise,
	"agent-based install: no imageDigestSources entry has the release image's repository as its source.")
