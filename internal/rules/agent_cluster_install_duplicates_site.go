package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// agentClusterInstallDuplicatesSite: see docs/agent-cluster-install-duplicates-site.md; the check itself is in package inputs.
var agentClusterInstallDuplicatesSite = inputRule(inputs.RuleACIDuplicatesSite, check.Warning, check.OriginSurprise,
	"A hand-written AgentClusterInstall for the ClusterDeployment a SiteConfig or ClusterInstance of the tree renders too: one spoke declared twice, checked as the site declares it.")
