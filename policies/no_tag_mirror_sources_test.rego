package mirrorlint.lib.no_tag_mirror_sources_test

import data.mirrorlint.lib.no_tag_mirror_sources as p

itms(source) := {"kind": "ImageTagMirrorSet", "name": "t", "spec": {"imageTagMirrors": [
	{"source": "docker.io/library", "mirrors": ["m.io/lib"]},
	{"source": source, "mirrors": ["m.io/x"]},
]}}

listed := ["quay.io/openshift-release-dev"]

test_off_without_data if {
	count(p.deny) == 0 with input as {"objects": [itms("quay.io/openshift-release-dev")]}
}

test_listed_source_denied if {
	fs := p.deny with input as {"objects": [itms("quay.io/openshift-release-dev/ocp-release")]}
		with data.mirrorlint.no_tag_mirror_sources as listed
	count(fs) == 1
	some f in fs
	f.rule == "tag-mirror-forbidden"
	f.path == "spec.imageTagMirrors[1].source"
}

test_enclosing_source_denied if {
	some f in p.deny with input as {"objects": [itms("quay.io")]} with data.mirrorlint.no_tag_mirror_sources as listed
	contains(f.msg, `tag mirrors for "quay.io" serve "quay.io/openshift-release-dev"`)
}

test_digest_sets_pass if {
	idms := {"kind": "ImageDigestMirrorSet", "name": "d", "spec": {"imageDigestMirrors": [{"source": "quay.io/openshift-release-dev", "mirrors": ["m.io/x"]}]}}
	count(p.deny) == 0 with input as {"objects": [idms]} with data.mirrorlint.no_tag_mirror_sources as listed
}

test_sibling_passes if {
	count(p.deny) == 0 with input as {"objects": [itms("quay.io/openshift-release-devel")]} with data.mirrorlint.no_tag_mirror_sources as listed
}
