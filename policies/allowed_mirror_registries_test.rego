package mirrorlint.lib.allowed_mirror_registries_test

import data.mirrorlint.lib.allowed_mirror_registries as p

idms := {"kind": "ImageDigestMirrorSet", "name": "m", "spec": {"imageDigestMirrors": [{
	"source": "quay.io/openshift-release-dev/ocp-release",
	"mirrors": ["registry.corp.example/ocp/release", "quay.io/someone/else", "a.mirror.corp.example:5000/r"],
}]}}

test_off_without_data if {
	count(p.deny) == 0 with input as {"objects": [idms]}
}

test_off_with_empty_list if {
	count(p.deny) == 0 with input as {"objects": [idms]} with data.mirrorlint.allowed_mirror_registries as []
}

test_mirror_outside_denied_at_its_path if {
	fs := p.deny with input as {"objects": [idms]}
		with data.mirrorlint.allowed_mirror_registries as ["registry.corp.example", "*.mirror.corp.example"]
	count(fs) == 1
	some f in fs
	f.rule == "mirror-registry-not-allowed"
	f.path == "spec.imageDigestMirrors[0].mirrors[1]"
	f.object.name == "m"
	contains(f.msg, `"quay.io/someone/else"`)
}

test_every_kind_is_checked if {
	itms := {"kind": "ImageTagMirrorSet", "name": "t", "spec": {"imageTagMirrors": [{"source": "a.io", "mirrors": ["x.io/a"]}]}}
	icsp := {"kind": "ImageContentSourcePolicy", "name": "c", "spec": {"repositoryDigestMirrors": [{"source": "a.io", "mirrors": ["x.io/a"]}]}}
	fs := p.deny with input as {"objects": [itms, icsp]} with data.mirrorlint.allowed_mirror_registries as ["registry.corp.example"]
	{f.path | some f in fs} == {"spec.imageTagMirrors[0].mirrors[0]", "spec.repositoryDigestMirrors[0].mirrors[0]"}
}

test_prefix_is_not_a_scope if {
	fs := p.deny with input as {"objects": [idms]} with data.mirrorlint.allowed_mirror_registries as ["registry.corp", "quay.io/someone", "*.corp.example"]
	count(fs) == 0
}
