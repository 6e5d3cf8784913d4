# METADATA
# title: Scope helpers shared by the built-in policies
# description: |
#   Matches image references against registries.conf-style scopes the way
#   containers/image does: a scope matches itself and everything below it at a
#   "/" boundary, and "*.example.com" matches any host under example.com.
package mirrorlint.lib.scope

# within(sub, super) is true when the scope sub lies inside the scope super,
# with MCO's semantics (the Go renderer's scopes.IsNested; one table of cases,
# internal/scopes/testdata/nesting.json, tests both): the same text; sub
# continuing super at a "/" boundary; or super a "*.domain" wildcard and the
# host part of sub ending in ".domain". The comparison is textual: callers
# normalise what users write (a trailing "/") before asking.
within(sub, super) if sub == super

within(sub, super) if startswith(sub, concat("", [super, "/"]))

within(sub, super) if {
	startswith(super, "*.")
	endswith(wildcard_host(sub), substring(super, 1, -1))
}

# wildcard_host is the part of a scope a "*.domain" scope is matched
# against: the text before the first ":" when there is one (undefined when
# that text holds a "/"), else the text before the first "/".
wildcard_host(s) := h if {
	contains(s, ":")
	h := split(s, ":")[0]
	not contains(h, "/")
}

wildcard_host(s) := split(s, "/")[0] if not contains(s, ":")

# normalized is a scope as users write it in data, without a trailing "/".
normalized(s) := trim_suffix(s, "/")

# mirror_fields names the list that holds mirror entries in each kind.
mirror_fields := {
	"ImageContentSourcePolicy": "repositoryDigestMirrors",
	"ImageDigestMirrorSet": "imageDigestMirrors",
	"ImageTagMirrorSet": "imageTagMirrors",
}

# entry_list(o) is the object's list of mirror entries, [] when it has none.
entry_list(o) := list if {
	field := mirror_fields[o.kind]
	list := object.get(o, ["spec", field], [])
	is_array(list)
} else := []
