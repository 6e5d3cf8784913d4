package check

import "sort"

// Merge joins the findings of several clusters. A finding on a value that
// several clusters share (a base used by three overlays) is reported once,
// listing every cluster it affects.
func Merge(perCluster ...[]Finding) []Finding {
	type key struct {
		rule, file, msg string
		line, col       int
	}
	index := map[key]int{}
	var out []Finding
	for _, fs := range perCluster {
		for _, f := range fs {
			k := key{f.Rule, f.File, f.Message, f.Line, f.Column}
			if i, ok := index[k]; ok {
				out[i].Clusters = mergeNames(out[i].Clusters, f.Clusters)
				continue
			}
			index[k] = len(out)
			f.Clusters = append([]string(nil), f.Clusters...)
			out = append(out, f)
		}
	}
	Sort(out)
	return out
}

func mergeNames(a, b []string) []string {
	seen := map[string]bool{}
	for _, s := range a {
		seen[s] = true
	}
	for _, s := range b {
		if !seen[s] {
			a = append(a, s)
			seen[s] = true
		}
	}
	sort.Strings(a)
	return a
}
