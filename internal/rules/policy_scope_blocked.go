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
	Doc: `MCO will not verify signatures for images it is told to block: when a
ClusterImagePolicy or ImagePolicy scope equals or lies inside a ` + "`blockedRegistries`" + ` entry
(after MCO's payload rule), it refuses the whole render with
` + "`could not update policy json with new changes: clusterimagePolicy configured for the scope <scope> is nested inside blockedRegistries`" + `
(for an ImagePolicy: ` + "`could not update namespace policy JSON from imagepolicy: imagePolicy configured for …`" + `),
logs it, keeps the previous MachineConfig and silently stops applying every later registry
change.

On OpenShift 4.21 every self-managed cluster holds the ClusterImagePolicy ` + "`openshift`" + ` for
` + "`quay.io/openshift-release-dev/ocp-release`" + ` (not in Git: the cluster-version operator installs it).
The common disconnected set-up ` + "`blockedRegistries: [quay.io]`" + ` with digest mirrors for the
payload therefore makes MCO refuse on 4.21; the finding is placed on the blocked entry.

**Fix:** block something narrower (the scope must stay outside every blocked entry), or drop
the policy scope. For the default policy, mirror the release repository and leave
` + "`quay.io/openshift-release-dev/ocp-release`" + ` unblocked (MCO keeps the mirrors working), or, if
the cluster really must not verify release signatures, mark the policy unmanaged in
ClusterVersion ` + "`spec.overrides`" + ` and delete it.`,
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
