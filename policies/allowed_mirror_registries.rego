# METADATA
# title: Mirrors only on the organisation's registries
# description: |
#   Opt-in: active when data.mirrorlint.allowed_mirror_registries is a
#   non-empty list of scopes ("registry.corp.example",
#   "registry.corp.example/ocp", "*.mirror.corp.example").
package mirrorlint.lib.allowed_mirror_registries

import data.mirrorlint.lib.scope

# A static reference: reading data.mirrorlint[key] would depend on the
# library's own packages beneath data.mirrorlint.lib.
allowed := [scope.normalized(s) | some s in data.mirrorlint.allowed_mirror_registries; is_string(s)]

# METADATA
# title: A mirror lies outside the registries listed in data.mirrorlint.allowed_mirror_registries.
# description: |
#   Every mirror of every ImageDigestMirrorSet, ImageTagMirrorSet and
#   ImageContentSourcePolicy must be one of the allowed scopes or lie beneath
#   one: "registry.corp.example" allows "registry.corp.example/ocp/release",
#   "*.corp.example" allows any host under corp.example. A mirror elsewhere
#   means nodes pull images from a registry the organisation does not run
#   (or trust).
#
#   ## Fix
#
#   Move the mirror to an allowed registry, or extend the list.
# custom:
#   rule: mirror-registry-not-allowed
deny contains finding if {
	count(allowed) > 0
	some o in input.objects
	some i, entry in scope.entry_list(o)
	some j, mirror in object.get(entry, "mirrors", [])
	is_string(mirror)
	not allowed_mirror(mirror)
	finding := {
		"rule": "mirror-registry-not-allowed",
		"msg": sprintf("mirror %q is not on an allowed registry (data.mirrorlint.allowed_mirror_registries: %s)", [mirror, concat(", ", allowed)]),
		"object": o,
		"path": sprintf("spec.%s[%d].mirrors[%d]", [scope.mirror_fields[o.kind], i, j]),
	}
}

allowed_mirror(mirror) if {
	some a in allowed
	scope.within(mirror, a)
}
