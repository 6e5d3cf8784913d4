package check

import (
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// RenderReads are the kinds the render of every cluster reads (BuildInput):
// every run needs them, whatever its rules.
var RenderReads = []string{
	string(manifest.KindICSP), string(manifest.KindIDMS), string(manifest.KindITMS), string(manifest.KindImage),
	// The signature policies, the feature set that decides which of them
	// are served, and ClusterVersion's overrides of the default policy.
	string(manifest.KindClusterImagePolicy), string(manifest.KindImagePolicy),
	string(manifest.KindFeatureGate), string(manifest.KindClusterVersion),
}

// Needs is what the registry's rules read, with the render's kinds: every
// kind when one rule does not say (Rule.Reads nil).
func (r *Registry) Needs() manifest.Needs {
	n := manifest.NeedKinds(RenderReads...)
	for _, rule := range r.order {
		if rule.Check == nil {
			continue // the engine's own bookkeeping rules read no object
		}
		if rule.Reads == nil {
			return manifest.NeedAll()
		}
		n = n.Union(manifest.NeedKinds(rule.Reads...))
	}
	return n
}

// Judged splits Needs for a run that reports only on some files: judged
// are the kinds that only rules judging them one object at a time read
// (Rule.Judges; never a kind the render reads), relates the kinds the
// findings about such objects may also name (those rules' other Reads).
// Findings about a judged object in a file the run does not report on
// are then dropped, unless they name an object of a relates kind in a
// reported file: when no reported file holds one, the judged kinds are
// not needed from the other files. Both are nil when a rule reads any
// kind (Rule.Reads nil).
func (r *Registry) Judged() (judged, relates []string) {
	readBy := map[string]bool{} // kind -> read by a rule that does not judge it
	for _, k := range RenderReads {
		readBy[k] = true
	}
	judges := map[string]bool{}
	rel := map[string]bool{}
	for _, rule := range r.order {
		if rule.Check == nil {
			continue
		}
		if rule.Reads == nil {
			return nil, nil
		}
		for _, k := range rule.Reads {
			if slices.Contains(rule.Judges, k) {
				judges[k] = true
				continue
			}
			readBy[k] = true
			if len(rule.Judges) > 0 {
				rel[k] = true
			}
		}
	}
	for k := range judges {
		if !readBy[k] {
			judged = append(judged, k)
		}
	}
	for k := range rel {
		relates = append(relates, k)
	}
	slices.Sort(judged)
	slices.Sort(relates)
	return judged, relates
}
