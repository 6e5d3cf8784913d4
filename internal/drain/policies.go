package drain

import (
	"bytes"
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/ndp"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/render"
)

// Policy is the node-disruption part of a verdict: the policies in force
// and the daemon's decision under them.
type Policy struct {
	InForce  ndp.InForce
	Decision ndp.Decision
	// Override is set when the 4.17–4.19 drain-override ConfigMap is in
	// the tree (it only turns off the Special drain).
	Override bool
}

// WithPolicies turns a verdict found under the legacy defaults (Compare)
// into the daemon's decision under the node-disruption policies in force:
// every changed file takes the actions of its closest policy entry, the
// registries.conf safety check counts only when the Special action
// decides, and each reason says which entry decided it. changed lists the
// node files whose content differs between the sides.
func WithPolicies(v Verdict, changed []string, in ndp.InForce, override bool) Verdict {
	files := slices.Sorted(slices.Values(changed))
	safe := true
	for _, r := range v.Reasons {
		if r.File == RegistriesConfPath && r.Drain {
			safe = false
		}
	}
	d := in.Decide(files, safe, override)
	out := Verdict{Drain: d.Drain, Reboot: d.Verdict() == ndp.VerdictReboot,
		Policy: &Policy{InForce: in, Decision: d, Override: override}}
	byFile := map[string]ndp.FileMatch{}
	for _, m := range d.Matches {
		byFile[m.File] = m
	}
	for _, r := range v.Reasons {
		m, ok := byFile[r.File]
		if !ok {
			// A rewrite that changes no byte of the node's file.
			out.Reasons = append(out.Reasons, r)
			continue
		}
		acts := m.Actions()
		legacy := r
		if len(acts) == 1 && acts[0].Type == ndp.Special {
			r.Drain, r.Reboot = r.Drain && !override, false
		} else {
			r.Drain = hasType(acts, ndp.Reboot) || hasType(acts, ndp.Drain)
			r.Reboot = hasType(acts, ndp.Reboot)
		}
		// The legacy messages describe the release defaults; a reason
		// decided otherwise names the entry that decided it.
		if user := m.Rule != nil && !m.Rule.Default(); user || r.Drain != legacy.Drain || r.Reboot != legacy.Reboot {
			decided := in.Describe(m)
			if r.change != "" {
				r.Message = r.change + ": " + decided + ": " + effect(acts)
			} else {
				r.Message += " (" + decided + ": " + effect(acts) + ")"
			}
		}
		out.Reasons = append(out.Reasons, r)
	}
	return out
}

func hasType(acts []ndp.Action, t string) bool {
	return slices.ContainsFunc(acts, func(a ndp.Action) bool { return a.Type == t })
}

// effect says in words what a file's actions do on the node.
func effect(acts []ndp.Action) string {
	var parts []string
	for _, a := range acts {
		switch a.Type {
		case ndp.Reboot:
			return "nodes drain and reboot"
		case ndp.Drain:
			parts = append(parts, "nodes drain")
		case ndp.Reload:
			parts = append(parts, a.Service+" is reloaded")
		case ndp.Restart:
			parts = append(parts, a.Service+" is restarted")
		case ndp.DaemonReload:
			parts = append(parts, "systemd reloads its units")
		case ndp.Special:
			parts = append(parts, "CRI-O is reloaded, and nodes drain unless the registries.conf change is safe")
		case ndp.None:
			parts = append(parts, "nothing is restarted and nodes do not drain")
		}
	}
	return strings.Join(parts, ", ")
}

// ChangedFiles lists, sorted, the node files whose content differs from
// old to new, written or removed included: the daemon's diff of the two
// rendered configs, restricted to the files mirrorlint renders.
func ChangedFiles(old, new *render.Output) []string {
	var out []string
	differ := func(path string, a, b []byte) {
		if (a == nil) != (b == nil) || !bytes.Equal(a, b) {
			out = append(out, path)
		}
	}
	differ(RegistriesConfPath, old.NodeRegistriesConf(), new.NodeRegistriesConf())
	differ(PolicyJSONPath, old.NodePolicyJSON(), new.NodePolicyJSON())
	differ(SearchDropInPath, old.NodeSearchRegistriesConf(), new.NodeSearchRegistriesConf())
	differ(SigstorePath, sigstoreOf(old), sigstoreOf(new))
	for _, ns := range CRIONamespaces(old, new) {
		differ(nodefiles.CRIOPolicyPath(ns), crioPolicyOf(old, ns), crioPolicyOf(new, ns))
	}
	slices.Sort(out)
	return out
}
