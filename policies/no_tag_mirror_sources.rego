# METADATA
# title: No tag mirrors for given sources
# description: |
#   Opt-in: active when data.mirrorlint.no_tag_mirror_sources is a non-empty
#   list of source scopes (typically the release payload repositories).
package mirrorlint.lib.no_tag_mirror_sources

import data.mirrorlint.lib.scope

# A static reference: reading data.mirrorlint[key] would depend on the
# library's own packages beneath data.mirrorlint.lib.
sources := [scope.normalized(s) | some s in data.mirrorlint.no_tag_mirror_sources; is_string(s)]

# METADATA
# title: An ImageTagMirrorSet covers a source listed in data.mirrorlint.no_tag_mirror_sources.
# description: |
#   A by-tag pull through a mirror can return a different image than the
#   source would, so tag mirrors must not serve the listed sources. An
#   ImageTagMirrorSet entry is reported when its source is a listed scope or
#   lies beneath one, and also when it encloses a listed scope (an entry for
#   quay.io serves quay.io/openshift-release-dev by tag unless a longer
#   source exists).
#
#   ## Fix
#
#   Remove the entry, or mirror those images by digest
#   (ImageDigestMirrorSet).
# custom:
#   rule: tag-mirror-forbidden
deny contains finding if {
	count(sources) > 0
	some o in input.objects
	o.kind == "ImageTagMirrorSet"
	some i, entry in scope.entry_list(o)
	is_string(entry.source)
	some listed in sources
	covers(entry.source, listed)
	finding := {
		"rule": "tag-mirror-forbidden",
		"msg": sprintf("tag mirrors for %q serve %q, which data.mirrorlint.no_tag_mirror_sources forbids: a by-tag pull through a mirror can return a different image; mirror it by digest (ImageDigestMirrorSet) instead", [entry.source, listed]),
		"object": o,
		"path": sprintf("spec.imageTagMirrors[%d].source", [i]),
	}
}

covers(source, listed) if scope.within(source, listed)

covers(source, listed) if scope.within(listed, source)
