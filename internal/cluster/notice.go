package cluster

import (
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// notices words what is worth telling about how the loaded clusters were
// grouped: a top-level directory (or a whole tree) taken as one cluster
// (no layout, no kustomization reaching its files) whose directories
// disagree with each other, the sign that they describe different
// clusters. The notice shows the clusters: entry that would split them,
// and, since declared clusters replace discovery, how many other clusters
// such a config would have to declare too.
func (d *discoverer) notices(cls []*Cluster, total int) []string {
	var out []string
	for _, c := range cls {
		if !c.group.leftover() {
			continue
		}
		if n := rootDisagreement(c, d, total-1); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// rootDisagreement looks for two directories just below a leftover
// group's directory that cannot be one cluster's: one object (kind and
// name) written differently in each, or one source with different
// mirrorSourcePolicy values (MCO refuses that in one cluster). others is
// how many other clusters the run found.
func rootDisagreement(c *Cluster, d *discoverer, others int) string {
	top := func(o *manifest.Object) string {
		rel, in := manifest.Within(c.group.dir, manifest.AbsName(o.File))
		if !in {
			return ""
		}
		first, _, nested := strings.Cut(filepath.ToSlash(rel), "/")
		if !nested {
			return "" // a file at the top belongs to every part
		}
		return first
	}
	dirs := map[string]bool{}
	var rootFiles []string
	byRef := map[string]*manifest.Object{}
	policy := map[string]policyAt{}
	why := ""
	for _, o := range c.Objects {
		t := top(o)
		if t == "" {
			if rel, in := manifest.Within(c.group.dir, manifest.AbsName(o.File)); in && !slices.Contains(rootFiles, filepath.ToSlash(rel)) {
				rootFiles = append(rootFiles, filepath.ToSlash(rel))
			}
			continue
		}
		dirs[t] = true
		if why != "" {
			continue
		}
		if prev := byRef[o.Ref()]; prev != nil && top(prev) != t && !reflect.DeepEqual(prev.Content, o.Content) {
			why = fmt.Sprintf("%s is written differently in %s and %s", o.Ref(), d.names.display(manifest.AbsName(prev.File)), d.names.display(manifest.AbsName(o.File)))
			continue
		} else if prev == nil {
			byRef[o.Ref()] = o
		}
		for src, pol := range sourcePolicies(o) {
			if prev, ok := policy[src]; ok && prev.dir != t && prev.policy != pol {
				why = fmt.Sprintf("%s and %s set different mirrorSourcePolicy values for %s", d.names.display(manifest.AbsName(prev.file)), d.names.display(manifest.AbsName(o.File)), src)
				break
			} else if !ok {
				policy[src] = policyAt{policy: pol, dir: t, file: o.File}
			}
		}
	}
	if why == "" || len(dirs) < 2 {
		return ""
	}
	names := slices.Sorted(maps.Keys(dirs))
	sort.Strings(rootFiles)
	// The config lives at the tree's root; a top-level group's paths are
	// written from there.
	cfgDir, prefix := c.group.dir, ""
	if c.group.kind == groupTop {
		cfgDir, prefix = filepath.Dir(c.group.dir), filepath.Base(c.group.dir)+"/"
	}
	var common []string
	for _, f := range rootFiles {
		common = append(common, prefix+f)
	}
	var entries []string
	for _, n := range names {
		entries = append(entries, fmt.Sprintf("{name: %s, paths: [%s]}", prefix+n, strings.Join(append([]string{prefix + n}, common...), ", ")))
	}
	what := fmt.Sprintf("the whole tree (%s) is linted as one cluster, but its top-level directories disagree", d.names.display(c.group.dir))
	if c.group.kind == groupTop {
		named := ""
		if c.Name != "" {
			named = " (" + c.Name + ")"
		}
		what = fmt.Sprintf("the files of %s/ that no kustomization or cluster layout reaches are linted as one cluster%s, but its directories disagree", d.names.display(c.group.dir), named)
	}
	also := ""
	switch {
	case others == 1:
		also = "; declared clusters replace the ones found, so list the 1 other cluster of the tree there too (mirrorlint clusters shows it)"
	case others > 1:
		also = fmt.Sprintf("; declared clusters replace the ones found, so list the %d other clusters of the tree there too (mirrorlint clusters shows them)", others)
	}
	return fmt.Sprintf("%s (%s); if they are separate clusters, declare them in %s: clusters: [%s]%s",
		what, why, d.names.display(filepath.Join(cfgDir, ".mirrorlint.yaml")), strings.Join(entries, ", "), also)
}

type policyAt struct {
	policy, dir, file string
}

// sourcePolicies maps each source of a mirror set to its effective
// mirrorSourcePolicy (an ICSP always contacts the source).
func sourcePolicies(o *manifest.Object) map[string]string {
	out := map[string]string{}
	switch {
	case o.IDMS != nil:
		for _, e := range o.IDMS.Spec.ImageDigestMirrors {
			out[e.Source] = effectivePolicy(string(e.MirrorSourcePolicy))
		}
	case o.ITMS != nil:
		for _, e := range o.ITMS.Spec.ImageTagMirrors {
			out[e.Source] = effectivePolicy(string(e.MirrorSourcePolicy))
		}
	case o.ICSP != nil:
		for _, e := range o.ICSP.Spec.RepositoryDigestMirrors {
			out[e.Source] = "AllowContactingSource"
		}
	}
	return out
}

func effectivePolicy(p string) string {
	if p == "" {
		return "AllowContactingSource"
	}
	return p
}
