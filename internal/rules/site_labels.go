package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// siteLabels: see docs/site-labels.md; the check itself is in package inputs.
var siteLabels = inputRule(inputs.RuleSiteLabels, check.Error, check.OriginTool,
	"SiteConfig clusterLabels that are not a map, or ClusterInstance extraLabels.ManagedCluster or a hand-written ManagedCluster's labels that are not a map of strings.")
