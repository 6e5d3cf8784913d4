package cluster

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// pluginParts accounts for the external plugins of a closure, which builds
// leave out (see kustomization.Plugin): a ZTP PolicyGenTemplate or ACM
// PolicyGenerator is expanded by the loader, so the objects it delivers are
// the cluster's (its policies become clusters of their own, see
// splitPolicies; its plain CRs stay); any other plugin is reported once,
// as not run, and the rest of the kustomization is still built and linted.
func (d *discoverer) pluginParts(kusts []*kustomization.File) ([]*manifest.Object, []manifest.Problem) {
	var objs []*manifest.Object
	var probs []manifest.Problem
	for _, k := range kusts {
		for _, p := range k.Plugins() {
			if p.Expanded {
				objs = append(objs, d.res.Objects(p.Entry.Abs)...)
				continue
			}
			pr := d.kustProblem(k, p.Entry.Line, p.Entry.Column, fmt.Sprintf(
				"%s entry %q is an external plugin (%s) that mirrorlint does not run: the kustomization is built without it, so what it would %s is not linted",
				p.Entry.Field, p.Entry.Value, p.What(), map[string]string{"generators": "generate", "transformers": "change"}[p.Entry.Field]))
			pr.Code, pr.Warning = manifest.CodePluginNotRun, true
			probs = append(probs, pr)
		}
	}
	return objs, probs
}
