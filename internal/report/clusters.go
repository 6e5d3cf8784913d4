package report

import (
	"fmt"
	"strings"
)

// ClusterListLimit is how many cluster names the formats people read (text,
// annotations, JUnit, the job summary) print for one finding; a finding on
// a base shared by a whole fleet names the first few and counts the rest.
// JSON and SARIF keep every name.
const ClusterListLimit = 3

// ClusterLabel is the "[cluster …]" tag of a finding: every name when there
// are at most ClusterListLimit, else the count and the first names
// ("[144 clusters: sites/a, sites/b, sites/c, …]"). The unnamed cluster of
// a single-cluster tree gives "".
func ClusterLabel(clusters []string) string {
	names := clusterNames(clusters)
	switch {
	case len(names) == 0:
		return ""
	case len(names) <= ClusterListLimit:
		return "[cluster " + strings.Join(names, ", ") + "]"
	}
	return fmt.Sprintf("[%d clusters: %s, …]", len(names), strings.Join(names[:ClusterListLimit], ", "))
}
