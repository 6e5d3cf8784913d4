# METADATA
# title: Sources that nodes must never contact
# description: |
#   Opt-in: active when data.mirrorlint.never_contact_sources is a non-empty
#   list of source scopes.
package mirrorlint.lib.never_contact_sources

import data.mirrorlint.lib.scope

# A static reference: reading data.mirrorlint[key] would depend on the
# library's own packages beneath data.mirrorlint.lib.
sources := [scope.normalized(s) | some s in data.mirrorlint.never_contact_sources; is_string(s)]

# METADATA
# title: A mirror entry for a source listed in data.mirrorlint.never_contact_sources lets nodes contact the source.
# description: |
#   For every ImageDigestMirrorSet or ImageTagMirrorSet entry whose source is
#   a listed scope or lies beneath one, mirrorSourcePolicy must be
#   NeverContactSource; otherwise a node falls back to the source when the
#   mirrors fail. ImageContentSourcePolicy entries cannot say this at all
#   (they are always AllowContactingSource, and MCO refuses an ICSP beside a
#   NeverContactSource set for the same source). Only entries that exist are
#   checked.
#
#   ## Fix
#
#   Set mirrorSourcePolicy: NeverContactSource on the entry; move an ICSP
#   entry to an ImageDigestMirrorSet first (`mirrorlint migrate`).
# custom:
#   rule: never-contact-required
deny contains finding if {
	count(sources) > 0
	some o in input.objects
	o.kind in {"ImageDigestMirrorSet", "ImageTagMirrorSet"}
	some i, entry in scope.entry_list(o)
	listed := covering(entry)
	policy := object.get(entry, "mirrorSourcePolicy", "")
	policy != "NeverContactSource"
	field := sprintf("spec.%s[%d]", [scope.mirror_fields[o.kind], i])
	finding := {
		"rule": "never-contact-required",
		"msg": sprintf("source %q must not be contacted (data.mirrorlint.never_contact_sources lists %q): set mirrorSourcePolicy: NeverContactSource", [entry.source, listed]),
		"object": o,
		"path": at(field, policy),
	}
}

deny contains finding if {
	count(sources) > 0
	some o in input.objects
	o.kind == "ImageContentSourcePolicy"
	some i, entry in scope.entry_list(o)
	listed := covering(entry)
	finding := {
		"rule": "never-contact-required",
		"msg": sprintf("source %q must not be contacted (data.mirrorlint.never_contact_sources lists %q), but an ImageContentSourcePolicy always allows contacting it: move the entry to an ImageDigestMirrorSet with mirrorSourcePolicy: NeverContactSource (`mirrorlint migrate`)", [entry.source, listed]),
		"object": o,
		"path": sprintf("spec.repositoryDigestMirrors[%d].source", [i]),
	}
}

# covering(entry) is the first listed scope the entry's source falls under.
covering(entry) := [s | some s in sources; scope.within(entry.source, s)][0]

# A wrong policy value is pointed at; a missing one at the source.
at(field, "") := sprintf("%s.source", [field])

at(field, policy) := sprintf("%s.mirrorSourcePolicy", [field]) if policy != ""
