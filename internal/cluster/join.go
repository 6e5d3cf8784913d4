package cluster

import (
	"sort"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Join is base with the objects of parts added: what one managed cluster
// gets from several places (a ZTP site's install-time mirrors and the
// policies its labels bind it to), checked and rendered together. It keeps
// base's name, source, reason and settings, reads every part's inputs, and
// keeps each part's way back to its files and patches, so that findings
// on a part's objects are placed as they are in the part.
func Join(base *Cluster, parts []*Cluster) *Cluster {
	j := base.WithObjects(append([]*manifest.Object(nil), base.Objects...))
	j.Paths = append([]string(nil), base.Paths...)
	j.Inputs = append([]string(nil), base.Inputs...)
	j.Problems = append([]manifest.Problem(nil), base.Problems...)
	j.inputs = map[string]bool{}
	for f := range base.inputs {
		j.inputs[f] = true
	}
	j.origins = map[*manifest.Object]*manifest.Object{}
	for o, from := range base.origins {
		j.origins[o] = from
	}
	j.patches = append(j.patches[:0:0], base.patches...)
	// The joined cluster is no plain group: a new file belongs to the
	// parts it is read by, not to the join.
	j.group, j.parts = nil, nil
	j.loaded = true
	seen := map[*manifest.Object]bool{}
	for _, o := range j.Objects {
		seen[o] = true
	}
	seenProblem := map[string]bool{}
	for _, p := range j.Problems {
		seenProblem[p.String()] = true
	}
	shown := map[string]bool{}
	for _, f := range j.Inputs {
		shown[f] = true
	}
	for _, p := range parts {
		for _, o := range p.Objects {
			if !seen[o] {
				seen[o] = true
				j.Objects = append(j.Objects, o)
			}
		}
		for _, pr := range p.Problems {
			if k := pr.String(); !seenProblem[k] {
				seenProblem[k] = true
				j.Problems = append(j.Problems, pr)
			}
		}
		for f := range p.inputs {
			j.inputs[f] = true
		}
		for _, f := range p.Inputs {
			if !shown[f] {
				shown[f] = true
				j.Inputs = append(j.Inputs, f)
			}
		}
		j.Paths = append(j.Paths, p.Paths...)
		j.dirs = append(j.dirs, p.dirs...)
		for o, from := range p.origins {
			j.origins[o] = from
		}
		j.patches = append(j.patches, p.patches...)
		if j.res == nil {
			j.res = p.res
		}
		if j.d == nil {
			j.d = p.d
		}
	}
	sort.Strings(j.Inputs)
	return j
}
