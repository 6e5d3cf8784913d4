package impact

import (
	"github.com/mirrorlint/mirrorlint/internal/lint"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// BaseOf returns, for lint --base, the function that maps each cluster of
// the new tree to the same cluster at the base revision, paired the way
// diff pairs them. A cluster new in this change maps to an empty cluster.
func BaseOf(oldP, newP *project.Project, opts Options) func(*lint.Cluster) *lint.Cluster {
	byNew := map[*lint.Cluster]*lint.Cluster{}
	for _, pair := range pairClusters(oldP, newP, opts) {
		byNew[pair[1]] = pair[0]
	}
	return func(cl *lint.Cluster) *lint.Cluster { return byNew[cl] }
}
