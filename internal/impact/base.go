package impact

import (
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// Baseline is what lint --base compares the linted clusters with: each
// cluster of the new tree paired with the same cluster at the base
// revision, the way diff pairs them. A cluster new in this change pairs
// with an empty cluster.
type Baseline struct {
	of   map[*cluster.Cluster]*cluster.Cluster
	old  Old
	newP *project.Project
}

// BaseOf pairs the clusters of the new tree with those of the base.
func BaseOf(oldP, newP *project.Project, opts Options) *Baseline {
	b := &Baseline{of: map[*cluster.Cluster]*cluster.Cluster{}, old: opts.Old, newP: newP}
	for _, pair := range pairClusters(oldP, newP, opts) {
		b.of[pair.new] = pair.old
	}
	return b
}

// Of returns cl at the base revision (nil for a cluster Open did not make).
func (b *Baseline) Of(cl *cluster.Cluster) *cluster.Cluster {
	if b == nil {
		return nil
	}
	return b.of[cl]
}
