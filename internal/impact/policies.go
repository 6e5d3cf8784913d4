package impact

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/drain"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/ndp"
	"github.com/mirrorlint/mirrorlint/render"
)

// PolicyResult is how a cluster's node-disruption policies decided, in
// `diff --format json` (clusters[].policy) and the text output.
type PolicyResult struct {
	// Source says which MachineConfiguration was in force, one line each:
	// "new tree: MachineConfiguration/cluster", "old tree: …" when the new
	// one is refused, "defaults: …", and "ignored: …" for objects MCO does
	// not read for their name.
	Source []string `json:"source"`
	// Matches has one entry per changed node file: the policy entry that
	// applied.
	Matches []PolicyMatch `json:"matches"`
	// Rejected are the API server's refusals of the new tree's
	// MachineConfiguration/cluster (the cluster then keeps the previous
	// one).
	Rejected []PolicyRefusal `json:"rejected,omitempty"`
	// DrainOverride is set when the 4.17–4.19 ConfigMap
	// image-registry-override-drain turns the Special drain off.
	DrainOverride bool `json:"drainOverride,omitempty"`
}

// PolicyMatch is the entry that decided one changed file.
type PolicyMatch struct {
	File string `json:"file"`
	// Path is the entry's path, "" when no entry covers the file (the node
	// reboots).
	Path string `json:"path,omitempty"`
	// Default is set for a release default the user did not replace.
	Default bool     `json:"default,omitempty"`
	Actions []string `json:"actions"`
	// Entry names the entry ("MachineConfiguration/cluster
	// spec.nodeDisruptionPolicy.files[1]", "default policy", "no policy").
	Entry    string             `json:"entry"`
	Position *manifest.Position `json:"position,omitempty"`
	Rev      string             `json:"rev,omitempty"`
}

// PolicyRefusal is one reason the API server refuses a MachineConfiguration.
type PolicyRefusal struct {
	Message  string            `json:"message"`
	Position manifest.Position `json:"position"`
}

// verdict judges one cluster's change as its release's daemon does:
// drain.Compare, then, from 4.17 (4.16 with the TechPreviewNoUpgrade or
// DevPreviewNoUpgrade feature set), the node-disruption policies of the
// trees (a change may edit MachineConfiguration/cluster itself).
func verdict(oldCl, newCl *cluster.Cluster, o, n *render.Output) drain.Verdict {
	v := drain.Compare(o, n)
	ver := newCl.Settings.Version
	if !ndp.Applies(ver, check.EffectiveFeatureSet(newCl.Objects, newCl.Settings)) {
		return v
	}
	in := ndp.Resolve(ver, oldCl.Objects, newCl.Objects)
	return drain.WithPolicies(v, drain.ChangedFiles(o, n), in, ndp.DrainOverride(ver, newCl.Objects))
}

// policyResult is the JSON and text form of a verdict's policies; old
// names the old tree's files for people.
func policyResult(p *drain.Policy, old Old) *PolicyResult {
	if p == nil {
		return nil
	}
	in := p.InForce
	pr := &PolicyResult{Source: in.Lines(), Matches: []PolicyMatch{}, DrainOverride: p.Override && p.Decision.SpecialChecked}
	for _, m := range p.Decision.Matches {
		pm := PolicyMatch{File: m.File, Actions: actionStrings(m.Actions())}
		switch {
		case m.Rule == nil:
			pm.Entry = "no policy"
		case m.Rule.Default():
			pm.Path, pm.Default, pm.Entry = m.Rule.Path, true, "default policy"
		default:
			pm.Path = m.Rule.Path
			pm.Entry = in.Object.Ref() + " " + ndp.FilePath(m.Rule.Index).String()
			pos := in.Object.Locate(ndp.FilePath(m.Rule.Index))
			if in.From == ndp.FromOld {
				pos.File, pm.Rev = old.name(pos.File), old.Rev
			}
			pm.Position = &pos
		}
		pr.Matches = append(pr.Matches, pm)
	}
	for _, r := range in.Refusals {
		pos := in.Rejected.Position()
		if r.Path != nil {
			pos = in.Rejected.Locate(r.Path)
		}
		pr.Rejected = append(pr.Rejected, PolicyRefusal{Message: r.Message, Position: pos})
	}
	return pr
}

func actionStrings(acts []ndp.Action) []string {
	out := make([]string, len(acts))
	for i, a := range acts {
		out[i] = a.String()
	}
	return out
}
