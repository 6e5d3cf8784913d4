package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

var reservedPolicyName = &check.Rule{
	ID:       "reserved-policy-name",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A ClusterImagePolicy of your own is named \"openshift…\", the platform's name for its own policies.",
	Doc:      doc("reserved-policy-name"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		cips, ips := c.Input.PolicyObjects()
		for _, o := range cips {
			switch {
			case o.Name == render.DefaultPolicyName && c.Input.DefaultPolicy:
				c.Report(o, manifest.Path{"metadata", "name"},
					"ClusterImagePolicy %q is the cluster-version operator's: it overwrites this object with the payload's default policy (%s, Red Hat's release key), so the render uses that one; mark it unmanaged in ClusterVersion spec.overrides to own it", o.Name, render.DefaultPolicyScope)
			case o.Name == render.DefaultPolicyName && check.DefaultPolicyOverride(c.Cluster.Objects) != nil:
				// The administrator took the default policy over on purpose.
			case o.Name == render.DefaultPolicyName:
				c.Report(o, manifest.Path{"metadata", "name"},
					"ClusterImagePolicy %q is the name of the default policy that the cluster-version operator installs from OpenShift 4.21 (and on TechPreviewNoUpgrade clusters): the upgrade will overwrite this object; use another name", o.Name)
			case strings.HasPrefix(o.Name, render.DefaultPolicyName):
				c.Report(o, manifest.Path{"metadata", "name"},
					"ClusterImagePolicy %q starts with \"openshift\", the platform's prefix for its own policies: a later release may install one of this name and overwrite it; use another name", o.Name)
			}
		}
		for _, o := range ips {
			if ns := o.ImagePolicy.Namespace; strings.HasPrefix(ns, "openshift-") || ns == "openshift" {
				c.Report(o, manifest.Path{"metadata", "namespace"},
					"ImagePolicy %s is in the platform namespace %q: it governs the platform's own pods, which pull from the release payload", o.Name, ns)
			}
		}
	},
}
