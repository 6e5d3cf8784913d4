package impact

import (
	"fmt"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"reflect"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/drain"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// RuleID is the lint rule that warns about draining changes.
const RuleID = "drain-on-change"

// DrainRule returns the drain-on-change rule. base pairs each linted
// cluster with the same cluster at the base revision (lint --base REV);
// with base nil the rule reports nothing, since there is nothing to compare.
func DrainRule(base *Baseline) *check.Rule {
	// Without a base the rule reads nothing; with one it compares whole
	// clusters (whether each loads without errors), so every file counts.
	var reads []string
	if base == nil {
		reads = []string{}
	}
	return &check.Rule{
		ID:       RuleID,
		Severity: check.Warning,
		Origin:   check.OriginSurprise,
		Summary:  "The change makes the Machine Config Daemon drain (or reboot) every node (only with lint --base).",
		Doc:      doc("drain-on-change"),
		Reads:    reads,
		Check: func(c *check.Pass) {
			old := base.Of(c.Cluster)
			if old == nil {
				return
			}
			cur := &project.Rendered{Cluster: c.Cluster, Input: c.Input, Output: c.Rendered, Refusal: c.Refusal, Stopped: c.Cluster.Stopped}
			for _, f := range drainAgainst(old, cur, placer{old: base.old, newP: base.newP}) {
				g := c.ReportAt(f.Position, "%s", f.Message)
				g.Object, g.Path, g.Related = f.Object, f.Path, f.Related
			}
		},
	}
}

// drainFindings turns the verdict v on two renders of one cluster into one
// warning per change that drains the nodes, positioned on the object in the
// new state that carries the changed scope (the source, mirror or Image list
// entry) when there is one. A value the change removed is placed where a
// reviewer sees the removal (see placer.removed) and its message names
// where it was. Nothing is returned when either side is refused by MCO
// (the render rules report that), is refused before MCO so that its nodes
// get nothing (cluster.Cluster.Stopped), or does not load whole (a side missing a
// file or a failed kustomize build would make every object in it look
// removed or added). Warnings (input skipped on purpose, a file the
// kustomization does not list) leave the cluster whole.
func drainFindings(oldR, newR *project.Rendered, v drain.Verdict, at placer) []check.Finding {
	if !whole(oldR.Cluster) || !whole(newR.Cluster) || oldR.Output == nil || newR.Output == nil || oldR.Stopped != nil || newR.Stopped != nil || !v.Drain {
		return nil
	}
	oldCl, newCl := oldR.Cluster, newR.Cluster
	var out []check.Finding
	for _, r := range v.Reasons {
		if !r.Drain {
			continue
		}
		effect := "nodes drain"
		if r.Reboot {
			effect = "nodes drain and reboot"
		}
		f := check.Finding{Rule: RuleID, Severity: check.Warning, Message: fmt.Sprintf("%s: %s", effect, r.Message)}
		if o, path := locate(r, oldCl, newCl); o != nil {
			if r.Field == drain.FieldMirrorRemoved && len(path) > 0 && path[len(path)-1] == "source" {
				// The mirror is gone from its entry, which is still
				// there: the finding sits on the entry's mirrors, and
				// says where the mirror was.
				path = path[:len(path)-1].Child("mirrors")
				if oo, op := locate(r, nil, oldCl); oo != nil {
					f.Message += "; it was at " + at.old.position(written(oldCl, oo, op))
				}
			}
			f.Position, f.Object, f.Path = o.Locate(path), check.ObjectRef{Kind: string(o.Kind), Name: o.Name}, path.String()
		} else if o, path := locate(r, nil, oldCl); o != nil {
			// Gone from the new tree: say where it used to be, and put the
			// finding where the removal shows in the new tree.
			f.Message += "; it was at " + at.old.position(written(oldCl, o, path))
			at.removed(&f, o, path, newCl)
		}
		out = append(out, f)
	}
	check.Sort(out)
	return out
}

// written is where the value at path of o, an object of cl, is written:
// in the kustomize patch that set it, else in the object's file.
func written(cl *cluster.Cluster, o *manifest.Object, path manifest.Path) manifest.Position {
	if r := cl.Patches(); r != nil {
		if pos, ok := r.Place(string(o.Kind), o.Name, path.String()); ok {
			return pos
		}
	}
	return o.Locate(path)
}

// whole reports whether a cluster loaded without errors.
func whole(cl *cluster.Cluster) bool { return len(manifest.Errors(cl.Problems)) == 0 }

// drainAgainst is drainFindings for a cluster's old state and its current
// render: the old side is rendered, and compared, only when the new side
// can be.
func drainAgainst(oldCl *cluster.Cluster, newR *project.Rendered, at placer) []check.Finding {
	if !whole(oldCl) || !whole(newR.Cluster) || newR.Refusal != nil || newR.Stopped != nil {
		return nil
	}
	oldR := project.Render(oldCl)
	if oldR.Output == nil {
		return nil
	}
	return drainFindings(oldR, newR, verdict(oldCl, newR.Cluster, oldR.Output, newR.Output), at)
}

// locate finds the value a reason is about in cl, preferring objects that
// differ from their namesake in old (the ones the change touched).
func locate(r drain.Reason, old, cl *cluster.Cluster) (*manifest.Object, manifest.Path) {
	want := r.Scope
	if r.Field == drain.FieldBlocked && r.Scope != "" {
		// A mirror set's entry blocks its source through mirrorSourcePolicy:
		// the finding belongs on that value (often set by an overlay's
		// patch, where relocation then finds it), not on the source.
		if o, p := find(cl, old, func(source, value string) bool { return value == want && source == want }); o != nil && (o.IDMS != nil || o.ITMS != nil) {
			return o, p[:len(p)-1].Child("mirrorSourcePolicy")
		}
	}
	if r.Mirror != "" && r.Scope != "" {
		if o, p := find(cl, old, func(source, value string) bool { return source == r.Scope && value == r.Mirror }); o != nil {
			return o, p
		}
	}
	if r.Scope == "" {
		// File-wide: the search registries, set on Image/cluster.
		for _, o := range cl.Objects {
			if o.Known && o.Kind == manifest.KindImage && o.Name == "cluster" {
				return o, manifest.ParsePath("spec.registrySources.containerRuntimeSearchRegistries")
			}
		}
		return nil, nil
	}
	return find(cl, old, func(source, value string) bool { return value == want && source == want })
}

// find walks every scope-bearing value of cl: sources and mirrors of the
// mirror sets (match gets the source and the value) and Image's insecure
// and blocked lists (source and value are the entry).
func find(cl, old *cluster.Cluster, match func(source, value string) bool) (*manifest.Object, manifest.Path) {
	var best *manifest.Object
	var bestPath manifest.Path
	for _, o := range cl.Objects {
		if !o.Known {
			continue
		}
		for _, hit := range scopeValues(o) {
			if !match(hit.source, hit.value) {
				continue
			}
			if changed(o, old) {
				return o, hit.path
			}
			if best == nil {
				best, bestPath = o, hit.path
			}
		}
	}
	return best, bestPath
}

type scopeValue struct {
	source, value string
	path          manifest.Path
}

func scopeValues(o *manifest.Object) []scopeValue {
	var out []scopeValue
	add := func(list string, i int, source string, mirrors []string) {
		base := manifest.Path{"spec", list, i}
		out = append(out, scopeValue{source, source, base.Child("source")})
		for j, m := range mirrors {
			out = append(out, scopeValue{source, m, base.Child("mirrors", j)})
		}
	}
	switch {
	case o.ICSP != nil:
		for i, e := range o.ICSP.Spec.RepositoryDigestMirrors {
			add("repositoryDigestMirrors", i, e.Source, e.Mirrors)
		}
	case o.IDMS != nil:
		for i, e := range o.IDMS.Spec.ImageDigestMirrors {
			add("imageDigestMirrors", i, e.Source, scopes.Strings(e.Mirrors))
		}
	case o.ITMS != nil:
		for i, e := range o.ITMS.Spec.ImageTagMirrors {
			add("imageTagMirrors", i, e.Source, scopes.Strings(e.Mirrors))
		}
	case o.Image != nil && o.Name == "cluster":
		rs := o.Image.Spec.RegistrySources
		for i, s := range rs.InsecureRegistries {
			out = append(out, scopeValue{s, s, manifest.ParsePath(fmt.Sprintf("spec.registrySources.insecureRegistries[%d]", i))})
		}
		for i, s := range rs.BlockedRegistries {
			out = append(out, scopeValue{s, s, manifest.ParsePath(fmt.Sprintf("spec.registrySources.blockedRegistries[%d]", i))})
		}
	}
	return out
}

// changed reports whether o is new or differs from the object of the same
// kind and name in old.
func changed(o *manifest.Object, old *cluster.Cluster) bool {
	if old == nil {
		return false
	}
	for _, p := range old.Objects {
		if p.Kind == o.Kind && p.Name == o.Name {
			return !reflect.DeepEqual(p.Content["spec"], o.Content["spec"])
		}
	}
	return true
}
