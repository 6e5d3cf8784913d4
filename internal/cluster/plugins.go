package cluster

import (
	"fmt"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/sites"
)

// pluginParts accounts for the external plugins of a closure, which builds
// leave out (see kustomization.Plugin): a ZTP PolicyGenTemplate or ACM
// PolicyGenerator is expanded by the loader, so the objects it delivers are
// the cluster's (its policies become clusters of their own, see
// splitPolicies; its plain CRs stay); a SiteConfig is read as a site; any
// other plugin is reported once,
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
			if sitesOnly(p) {
				// Argo CD's ZTP plugin renders the site's installation;
				// mirrorlint reads the SiteConfig as a site (its own
				// cluster, see project), so nothing goes unlinted.
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

// sitesOnly reports whether every configuration of a plugin entry is a
// SiteConfig (ran.openshift.io/v1).
func sitesOnly(p kustomization.Plugin) bool {
	for _, k := range p.Kinds {
		if k != sites.APIVersionSiteConfig+" "+sites.KindSiteConfig {
			return false
		}
	}
	return len(p.Kinds) > 0
}

// generatorReads adds to a closure's inputs the files its expanded
// generators read (the manifests of a PolicyGenerator, the source CRs), so
// that an edit to one selects the cluster, and to its problems those the
// expansion placed in a manifest no kustomization lists as a resource: it
// is applied through the generator, in no cluster of its own (see
// viaGenerator), so they are reported nowhere else.
func (d *discoverer) generatorReads(kusts []*kustomization.File, inputs []string, probs []manifest.Problem) ([]string, []manifest.Problem) {
	for _, k := range kusts {
		for _, p := range k.Plugins() {
			if !p.Expanded {
				continue
			}
			g := d.res.Expansion(p.Entry.Abs)
			for _, f := range g.Files {
				if !slices.Contains(inputs, f) {
					inputs = append(inputs, f)
				}
			}
			for _, pr := range g.Problems {
				if abs, err := manifest.Abs(pr.Pos.File); err == nil && !d.reached[abs] && len(d.viaGenerator[abs]) > 0 {
					probs = append(probs, pr)
				}
			}
		}
	}
	return inputs, probs
}
