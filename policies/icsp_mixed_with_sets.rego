# METADATA
# title: ImageContentSourcePolicy mixed with ImageDigestMirrorSet/ImageTagMirrorSet
# description: |
#   The Rego form of the rule icsp-mixed-with-sets: the same id, severity,
#   message, position and related objects as the Go rule, so either can be
#   the single source of truth.
package mirrorlint.lib.icsp_mixed_with_sets

# Only objects the API server would serve count: a mirror kind under a wrong
# apiVersion is the api-version-kind rule's business and never reaches MCO.
# Each kind is sorted by name (stable), as MCO lists them.
icsps := by_name("ImageContentSourcePolicy")

sets := array.concat(by_name("ImageDigestMirrorSet"), by_name("ImageTagMirrorSet"))

by_name(kind) := [input.objects[p[1]] |
	some p in sort([[o.name, i] | some i, o in input.objects; o.known; o.kind == kind])
]

# METADATA
# title: ImageContentSourcePolicy objects are mixed with ImageDigestMirrorSet/ImageTagMirrorSet objects.
# description: |
#   Mirrors should have one source of truth. With both kinds in the tree, the
#   effective mirror configuration is the merge of two APIs with different
#   semantics (ICSP is always digest-only and can never say
#   NeverContactSource), and reviewers have to read both.
#
#   It is also a hard failure on some releases. **OpenShift 4.13.0–4.13.26**
#   (and 4.14 before the OCPBUGS-22275 backport) refuses the mix outright:
#   admission answers `can't create ImageDigestMirrorSet when
#   ImageContentSourcePolicy resources exist` (and the ITMS and reverse
#   variants), and MCO logs `error: both imagecontentsourcepolicy and
#   imagedigestmirrorset exist` and stops syncing registries. Later releases
#   accept the mix (runtime-utils merges ICSP into the digest sets) while
#   ImageContentSourcePolicy is deprecated.
#
#   This is this tool's stance, not a cluster error, hence error by default:
#   turn it down in `.mirrorlint.yaml` (`rules: {icsp-mixed-with-sets:
#   warning}`) during a migration if you must.
#
#   ## Fix
#
#   Convert the ICSPs with `mirrorlint migrate` (or `oc adm migrate icsp`),
#   review the result, and delete the ICSPs.
# custom:
#   rule: icsp-mixed-with-sets
deny contains finding if {
	count(icsps) > 0
	count(sets) > 0

	# Placed on the object MCO names when it refuses: the first
	# ImageDigestMirrorSet by name, else the first ImageTagMirrorSet; every
	# other object involved is related.
	finding := {
		"rule": "icsp-mixed-with-sets",
		"msg": sprintf(
			"%d ImageContentSourcePolicy object(s) (%s) are used together with %d ImageDigestMirrorSet/ImageTagMirrorSet object(s); %s, later releases accept it while ImageContentSourcePolicy is deprecated. Keep one source of truth: convert the ICSPs with `mirrorlint migrate`",
			[count(icsps), names(icsps, 3), count(sets), when],
		),
		"object": ref(sets[0]),
		"path": "metadata.name",
		"related": [{"object": ref(o), "path": "metadata.name"} |
			some o in array.concat(array.slice(sets, 1, count(sets)), icsps)
		],
	}
}

ref(o) := {"kind": o.kind, "name": o.name, "file": o.file, "doc": o.doc}

# names lists the first max names, then "…".
names(objs, max) := concat(", ", [o.name | some o in objs]) if count(objs) <= max

names(objs, max) := concat("", [concat(", ", [o.name | some o in array.slice(objs, 0, max)]), ", …"]) if count(objs) > max

# A bare "4.13" counts as refusing: its early patches do.
when := sprintf("the target release %s refuses the mix outright: admission forbids it and MCO stops syncing registries", [input.settings.openshiftVersion]) if {
	input.settings.version.minor == 13
	input.settings.version.patch <= 26
} else := "OpenShift 4.13.0–4.13.26 refuses the mix outright (admission and MCO)"
