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
	Check: func(c *check.Context) {
		for _, f := range render.PolicyScopeFindings(c.Input.Input) {
			if !strings.HasSuffix(f.Message, "is nested inside blockedRegistries") {
				continue
			}
			note := "MCO refuses to render and only logs it: the previous MachineConfig stays and every later registry change stops applying"
			if f.Subject.Kind == "Image" {
				note = "the scope is the default ClusterImagePolicy \"openshift\" (" + render.DefaultPolicyScope + "), which the cluster-version operator installs and is not in the tree; " + note
			}
			reportSubject(c, f.Subject, f.Related, "%s: %s", f.Message, note)
		}
	},
}
