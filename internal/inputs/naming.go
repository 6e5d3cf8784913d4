package inputs

import (
	"path"
	"path/filepath"
)

// Names are the names r's clusters have in a run, in order:
// "<kind>/<name>" (install-config/ocp4, ztp-spoke/sno1), unless several
// clusters would have that name. A repository often holds several
// clusters' inputs named alike: every hub's AgentServiceConfig is "agent",
// and install-configs copied from one example keep its metadata.name.
// Those are then qualified by the directory of the file declaring them,
// relative to the repository root as dirOf names it (a tree's cluster is
// named so too): install-config/day0/vmware/ocp4, which --cluster selects
// by its end (vmware/ocp4) as it does any name. Those declared in
// different files of one directory are qualified by their files instead
// (hosted-cluster/hosted/v414.yaml/hosted). Only clusters one file
// declares twice keep one name; the caller reports all but the first.
//
// Whether a name is qualified depends on the tree alone, never on which
// clusters a run selects, so a pre-commit run on one file names its
// clusters as a run on the whole tree does.
func (r *Result) Names(dirOf func(file string) string) []string {
	names := make([]string, len(r.Clusters))
	alike := map[string][]int{}
	for i, c := range r.Clusters {
		names[i] = c.Kind + "/" + c.Name
		alike[names[i]] = append(alike[names[i]], i)
	}
	for _, group := range alike {
		if r.files(group) < 2 {
			continue // where they are declared tells them not apart
		}
		byDir := map[string][]int{}
		for _, i := range group {
			d := dirOf(r.Clusters[i].From.File)
			byDir[d] = append(byDir[d], i)
		}
		for d, in := range byDir {
			byFile := r.files(in) > 1
			for _, i := range in {
				c := r.Clusters[i]
				q := d
				if byFile {
					q = path.Join(d, path.Base(filepath.ToSlash(c.From.File)))
				}
				if q != "." {
					names[i] = c.Kind + "/" + q + "/" + c.Name
				}
			}
		}
	}
	return names
}

// files counts the files declaring the clusters of r at indexes in.
func (r *Result) files(in []int) int {
	seen := map[string]bool{}
	for _, i := range in {
		seen[r.Clusters[i].From.File] = true
	}
	return len(seen)
}
