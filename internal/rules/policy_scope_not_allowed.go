package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/render"
)

var policyScopeNotAllowed = &check.Rule{
	ID:       "policy-scope-not-allowed",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "A ClusterImagePolicy or ImagePolicy scope lies outside allowedRegistries: MCO refuses to render.",
	Doc:      doc("policy-scope-not-allowed"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, f := range policyScopeFindings(c.Context) {
			if !strings.HasSuffix(f.Message, "is not nested inside allowedRegistries") {
				continue
			}
			note := policyScopeRefusalNote
			if len(f.Related) > 0 && strings.HasPrefix(f.Related[0].Path, "spec.registrySources.blockedRegistries") {
				note = "MCO's allowed list holds only the release repository, which MCO added itself because this blocked entry contains it and mirrors serve it; " + note
			}
			if f.Subject.Kind == "Image" && strings.Contains(f.Message, " "+render.DefaultPolicyScope+" ") {
				note = "the scope is the default ClusterImagePolicy \"openshift\", which the cluster-version operator installs and is not in the tree; " + note
			}
			reportSubject(c, f.Subject, f.Related, "%s: %s", f.Message, note)
		}
	},
}
