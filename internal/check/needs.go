package check

import "github.com/mirrorlint/mirrorlint/internal/manifest"

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
