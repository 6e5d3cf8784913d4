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
	Doc: `When an allowed list is in force, every ClusterImagePolicy and ImagePolicy scope must equal
or lie inside one of its entries; otherwise MCO refuses the whole render with
` + "`could not update policy json with new changes: clusterimagePolicy configured for the scope <scope> is not nested inside allowedRegistries`" + `
(for an ImagePolicy: ` + "`could not update namespace policy JSON from imagepolicy: imagePolicy configured for …`" + `),
logs it, keeps the previous MachineConfig and silently stops applying every later registry
change.

The allowed list is not only ` + "`allowedRegistries`" + `. When a ` + "`blockedRegistries`" + ` entry contains the
release repository and digest mirrors serve it, MCO keeps the entry and adds the release
repository (e.g. ` + "`quay.io/openshift-release-dev/ocp-release`" + `) to the allowed list itself. From then
on every policy scope outside the release repository is "not nested inside
allowedRegistries", although the Image config lists no allowed registry at all; the finding
then names the blocked entry that made MCO do it. The default ClusterImagePolicy of 4.21
(not in Git) is checked like the others.

**Fix:** add the scope (or an enclosing registry) to ` + "`allowedRegistries`" + `, or drop the scope. With
the payload entry: block something narrower than the release repository's registry.`,
	Check: func(c *check.Context) {
		for _, f := range render.PolicyScopeFindings(c.Input.Input) {
			if !strings.HasSuffix(f.Message, "is not nested inside allowedRegistries") {
				continue
			}
			note := "MCO refuses to render and only logs it: the previous MachineConfig stays and every later registry change stops applying"
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
