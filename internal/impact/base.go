package impact

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// BaseOf returns, for lint --base, the function that maps each cluster of
// the new tree to the same cluster at the base revision, paired the way
// diff pairs them. A cluster new in this change maps to an empty cluster.
func BaseOf(oldP, newP *project.Project, opts Options) func(*check.Cluster) *check.Cluster {
	byNew := map[*check.Cluster]*check.Cluster{}
	for _, pair := range pairClusters(oldP, newP, opts) {
		byNew[pair[1]] = pair[0]
	}
	return func(cl *check.Cluster) *check.Cluster { return byNew[cl] }
}
