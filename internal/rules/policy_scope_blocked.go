package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/render"
)

var policyScopeBlocked = &check.Rule{
	ID:       "policy-scope-blocked",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "A ClusterImagePolicy or ImagePolicy scope lies inside blockedRegistries: MCO refuses to render.",
	Doc:      doc("policy-scope-blocked"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, f := range policyScopeFindings(c.Context) {
			if !strings.HasSuffix(f.Message, "is nested inside blockedRegistries") {
				continue
			}
			note := policyScopeRefusalNote
			if f.Subject.Kind == "Image" {
				note = "the scope is the default ClusterImagePolicy \"openshift\" (" + render.DefaultPolicyScope + "), which the cluster-version operator installs and is not in the tree; " + note
			}
			reportSubject(c, f.Subject, f.Related, "%s: %s", f.Message, note)
		}
	},
}
