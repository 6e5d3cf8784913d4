# METADATA
# title: ImageContentSourcePolicy mixed with ImageDigestMirrorSet/ImageTagMirrorSet
# description: |
#   The single source of truth for the rule icsp-mixed-with-sets (there is no
#   Go copy). Reports every object involved, so each one can be suppressed or
#   fixed where it lives.
package mirrorlint.lib.icsp_mixed_with_sets

# Only objects the API server would serve count: a mirror kind under a wrong
# apiVersion is the api-version-kind rule's business and never reaches MCO.
icsps := [o | some o in input.objects; o.known; o.kind == "ImageContentSourcePolicy"]

mirror_sets := [o |
	some o in input.objects
	o.known
	o.kind in {"ImageDigestMirrorSet", "ImageTagMirrorSet"}
]

# METADATA
# title: ImageContentSourcePolicy objects exist together with ImageDigestMirrorSet or ImageTagMirrorSet objects.
# description: |
#   OpenShift 4.13.0–4.13.26 (and 4.14 before the OCPBUGS-22275 backport)
#   refuses the mix outright: the API server forbids creating one kind while
#   the other exists, and MCO stops rendering registries.conf with
#   "both imagecontentsourcepolicy and imagedigestmirrorset exist" (it only
#   logs this, so every later registry change silently stops applying).
#   Later versions merge ImageContentSourcePolicy into the digest sets, but
#   ImageContentSourcePolicy is deprecated and two kinds describing the same
#   mirrors drift apart. Keep one source of truth: convert the
#   ImageContentSourcePolicy objects with `mirrorlint migrate` and delete them.
# custom:
#   rule: icsp-mixed-with-sets
deny contains finding if {
	count(icsps) > 0
	count(mirror_sets) > 0
	some o in array.concat(icsps, mirror_sets)
	others := others_of(o)
	finding := {
		"rule": "icsp-mixed-with-sets",
		"msg": message(o, others),
		"object": o,
		"path": "kind",
		"related": [{"object": x, "path": "kind"} | some x in array.slice(others, 0, max_related)],
	}
}

# Each finding relates the first few objects of the other kind; the message
# counts the rest. Relating all of them would make n findings of n entries
# each on a repository in the middle of a large migration.
max_related := 5

others_of(o) := mirror_sets if o.kind == "ImageContentSourcePolicy"

others_of(o) := icsps if o.kind != "ImageContentSourcePolicy"

message(o, others) := sprintf(
	"%s/%s exists together with %s%s: OpenShift 4.13.0–4.13.26 refuses the mix outright%s; later versions accept it while ImageContentSourcePolicy is deprecated. Keep one kind: convert the ImageContentSourcePolicy objects with `mirrorlint migrate` and delete them",
	[o.kind, o.name, ref(others[0]), more(others), target_note],
)

ref(o) := sprintf("%s/%s", [o.kind, o.name])

more(others) := "" if count(others) == 1

more(others) := sprintf(" and %d more", [count(others) - 1]) if count(others) > 1

# The target release is named when it is one of the refusing ones; a bare
# "4.13" counts, because its early patches refuse.
target_note := sprintf(" (the target OpenShift %s is one of them)", [input.settings.openshiftVersion]) if {
	input.settings.version.minor == 13
	input.settings.version.patch <= 26
} else := ""
