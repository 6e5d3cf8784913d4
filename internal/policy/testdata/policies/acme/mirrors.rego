# METADATA
# title: ACME mirror rules
package acme.mirrors

allowed_registry := "registry.acme.example"

# METADATA
# title: Every mirror lives on the ACME registry.
# description: Nodes may only pull through registry.acme.example.
# custom:
#   rule: allowed-registry
deny contains finding if {
	some o in input.objects
	o.kind in {"ImageDigestMirrorSet", "ImageTagMirrorSet"}
	some field in ["imageDigestMirrors", "imageTagMirrors"]
	some i, entry in object.get(o.spec, field, [])
	some j, mirror in entry.mirrors
	not startswith(mirror, concat("", [allowed_registry, "/"]))
	finding := {
		"rule": "allowed-registry",
		"msg": sprintf("mirror %s is outside %s", [mirror, allowed_registry]),
		"object": {"kind": o.kind, "name": o.name},
		"path": sprintf("spec.%s[%d].mirrors[%d]", [field, i, j]),
	}
}

warn contains {
	"rule": "tag-mirror",
	"msg": sprintf("tag mirrors for %s can return a different image than the source", [entry.source]),
	"object": o,
	"path": ["spec", "imageTagMirrors", i, "mirrors"],
} if {
	some o in input.objects
	o.kind == "ImageTagMirrorSet"
	some i, entry in o.spec.imageTagMirrors
}

info contains "policies ran over a rendered registries.conf" if not input.rendered.refused
