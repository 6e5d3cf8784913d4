package project

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
	"github.com/mirrorlint/mirrorlint/internal/ztp"
)

// A hand-written AgentClusterInstall whose ManagedCluster the tree does
// not apply declares a spoke whose labels are unknown: the hub may well
// hold its ManagedCluster, labelled to get any policy, but no policy is
// joined to it here. What is said of the policies must stay true of it: a
// policy no site gets may still reach it, and its install's mirrors are
// not linted with what such a policy delivers, which the user is told.

// unlabelledSpoke is a spoke of the tree whose labels are unknown.
type unlabelledSpoke struct {
	full string // its cluster's name (ztp-spoke/sno3)
	name string // its managed cluster's (sno3)
}

// unlabelledSpokes are those of the clusters cs (named names) the hub
// installs, without a site and without a ManagedCluster in the tree, each
// once.
func unlabelledSpokes(cs []*inputs.Cluster, names []string) []unlabelledSpoke {
	var out []unlabelledSpoke
	for i, c := range cs {
		if !c.ByHand || c.Site != nil || c.ManagedCluster != nil || c.Refused ||
			slices.ContainsFunc(out, func(u unlabelledSpoke) bool { return u.full == names[i] }) {
			continue
		}
		out = append(out, unlabelledSpoke{full: names[i], name: c.Name})
	}
	return out
}

// mayReach reports whether the binding may place its policy on the managed
// cluster name whose labels, but for its name, are unknown.
func (b binding) mayReach(name string) bool {
	return slices.ContainsFunc(b.sels, func(s ztp.Selector) bool { return s.MaySelect(name) })
}

// noteUnlabelled tells, of each policy of pcs that may reach a spoke whose
// labels are unknown, that whether it does is not evaluated (when no site
// gets it: placed says which do), and, of each such spoke, in a notice,
// which policies are not linted with it.
func (p *Project) noteUnlabelled(pcs []policyCluster, placed map[*cluster.Cluster]bool, res *cluster.Result) {
	mayGet := map[*cluster.Cluster][]string{}
	for _, u := range p.unlabelled {
		var reach []string
		for _, pc := range pcs {
			if !pc.b.mayReach(u.name) {
				continue
			}
			reach = append(reach, pc.ref)
			if !placed[pc.cl] {
				mayGet[pc.cl] = append(mayGet[pc.cl], u.name)
			}
		}
		if len(reach) > 0 {
			res.Notices = append(res.Notices, fmt.Sprintf("%s: the tree applies no ManagedCluster %s, so its labels are unknown and the policies that may reach it are not linted with its install's mirrors (%s); commit its ManagedCluster (cluster.open-cluster-management.io/v1, named %s, with its labels) beside its AgentClusterInstall",
				u.full, u.name, listSome(reach, 3), u.name))
		}
	}
	for cl, names := range mayGet {
		note := fmt.Sprintf("the labels of %s are unknown (the tree applies no ManagedCluster of %s): whether %s it is not evaluated",
			strings.Join(names, ", "), map[bool]string{true: "that name", false: "those names"}[len(names) == 1],
			map[bool]string{true: "it gets", false: "they get"}[len(names) == 1])
		if p.unplaced[cl] == "" {
			p.unplaced[cl] = note + ", so the policy is linted on its own"
			continue
		}
		p.unplaced[cl] += "; and " + note
	}
}

// listSome writes the first n of items, and how many more there are.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}
