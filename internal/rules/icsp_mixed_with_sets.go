package rules

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/lint"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var icspMixedWithSets = &lint.Rule{
	ID:       "icsp-mixed-with-sets",
	Severity: lint.Error,
	Origin:   lint.OriginPolicy,
	Summary:  "ImageContentSourcePolicy objects are mixed with ImageDigestMirrorSet/ImageTagMirrorSet objects.",
	Doc: `Mirrors should have one source of truth. With both kinds in the tree, the effective
mirror configuration is the merge of two APIs with different semantics (ICSP is always
digest-only and can never say NeverContactSource), and reviewers have to read both.

It is also a hard failure on some releases. **OpenShift 4.13.0–4.13.26** (and 4.14 before
the OCPBUGS-22275 backport) refuses the mix outright: admission answers
` + "`can't create ImageDigestMirrorSet when ImageContentSourcePolicy resources exist`" + ` (and the
ITMS and reverse variants), and MCO logs
` + "`error: both imagecontentsourcepolicy and imagedigestmirrorset exist`" + ` and stops syncing
registries. Later releases accept the mix (runtime-utils merges ICSP into the digest
sets) while ImageContentSourcePolicy is deprecated.

This is this tool's stance, not a cluster error, hence error by default: turn it down in
` + "`.mirrorlint.yaml`" + ` (` + "`rules: {icsp-mixed-with-sets: warning}`" + `) during a migration if you must.

**Fix:** convert the ICSPs with ` + "`mirrorlint migrate`" + ` (or ` + "`oc adm migrate icsp`" + `), review
the result, and delete the ICSPs.`,
	Check: func(c *lint.Context) {
		icsps := byName(c, manifest.KindICSP)
		if len(icsps) == 0 {
			return
		}
		sets := append(byName(c, manifest.KindIDMS), byName(c, manifest.KindITMS)...)
		if len(sets) == 0 {
			return
		}
		v := c.Settings.Version
		when := "OpenShift 4.13.0–4.13.26 refuses the mix outright (admission and MCO)"
		if !v.IsZero() && v.RefusesICSPMix() {
			when = fmt.Sprintf("the target release %s refuses the mix outright: admission forbids it and MCO stops syncing registries", v)
		}
		// Placed on the object MCO names when it refuses: the first
		// ImageDigestMirrorSet by name, else the first ImageTagMirrorSet.
		at := sets[0]
		f := c.Report(at, manifest.Path{"metadata", "name"},
			"%d ImageContentSourcePolicy object(s) (%s) are used together with %d ImageDigestMirrorSet/ImageTagMirrorSet object(s); %s, later releases accept it while ImageContentSourcePolicy is deprecated. Keep one source of truth: convert the ICSPs with `mirrorlint migrate`",
			len(icsps), names(icsps, 3), len(sets), when)
		for _, o := range sets[1:] {
			f.Also(o, manifest.Path{"metadata", "name"})
		}
		for _, o := range icsps {
			f.Also(o, manifest.Path{"metadata", "name"})
		}
	},
}

func names(objs []*manifest.Object, max int) string {
	l := make([]string, len(objs))
	for i, o := range objs {
		l[i] = o.Name
	}
	return quoteList(l, max)
}
