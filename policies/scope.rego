# METADATA
# title: Scope helpers shared by the built-in policies
# description: |
#   Matches image references against registries.conf-style scopes the way
#   containers/image does: a scope matches itself and everything below it at a
#   "/" boundary, and "*.example.com" matches any host under example.com.
package mirrorlint.lib.scope

# within(ref, scope) is true when ref is scope or lies beneath it.
within(ref, scope) if ref == trim_suffix(scope, "/")

within(ref, scope) if {
	not startswith(scope, "*.")
	startswith(ref, concat("", [trim_suffix(scope, "/"), "/"]))
}

within(ref, scope) if {
	startswith(scope, "*.")
	endswith(host(ref), substring(scope, 1, -1))
}

# host is the registry host of a reference, without its port.
host(ref) := split(split(ref, "/")[0], ":")[0]

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
