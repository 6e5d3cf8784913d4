package mirrorlint.lib.icsp_mixed_with_sets_test

import data.mirrorlint.lib.icsp_mixed_with_sets as p

obj(kind, name) := {"kind": kind, "name": name, "known": true, "file": "f.yaml", "doc": 0}

icsp(name) := obj("ImageContentSourcePolicy", name)

idms(name) := obj("ImageDigestMirrorSet", name)

itms(name) := obj("ImageTagMirrorSet", name)

settings(v, minor, patch) := {"openshiftVersion": v, "version": {"major": 4, "minor": minor, "patch": patch}}

newest := settings("4.21", 21, -1)

test_mix_is_one_finding_on_the_first_digest_set if {
	fs := p.deny with input as {"objects": [itms("t"), icsp("old"), idms("zz"), idms("aa")], "settings": newest}
	count(fs) == 1
	some f in fs
	f.rule == "icsp-mixed-with-sets"
	f.object.name == "aa"
	f.path == "metadata.name"
	[r.object.name | some r in f.related] == ["zz", "t", "old"]
	f.msg == "1 ImageContentSourcePolicy object(s) (old) are used together with 3 ImageDigestMirrorSet/ImageTagMirrorSet object(s); OpenShift 4.13.0–4.13.26 refuses the mix outright (admission and MCO), later releases accept it while ImageContentSourcePolicy is deprecated. Keep one source of truth: convert the ICSPs with `mirrorlint migrate`"
}

test_tag_set_when_no_digest_set if {
	some f in p.deny with input as {"objects": [itms("t2"), itms("t1"), icsp("old")], "settings": newest}
	f.object == {"kind": "ImageTagMirrorSet", "name": "t1", "file": "f.yaml", "doc": 0}
}

test_many_icsps_are_abbreviated if {
	some f in p.deny with input as {"objects": [icsp("d"), icsp("c"), icsp("b"), icsp("a"), idms("x")], "settings": newest}
	startswith(f.msg, "4 ImageContentSourcePolicy object(s) (a, b, c, …) are used together with 1 ")
}

test_affected_target_is_named if {
	some f in p.deny with input as {"objects": [icsp("old"), idms("new")], "settings": settings("4.13.20", 13, 20)}
	contains(f.msg, "; the target release 4.13.20 refuses the mix outright: admission forbids it and MCO stops syncing registries, later releases")
}

test_bare_413_is_affected if {
	some f in p.deny with input as {"objects": [icsp("old"), idms("new")], "settings": settings("4.13", 13, -1)}
	contains(f.msg, "the target release 4.13 refuses")
}

test_fixed_413_patch_not_named if {
	some f in p.deny with input as {"objects": [icsp("old"), idms("new")], "settings": settings("4.13.27", 13, 27)}
	contains(f.msg, "OpenShift 4.13.0–4.13.26 refuses the mix outright (admission and MCO)")
}

test_icsp_alone_is_fine if {
	count(p.deny) == 0 with input as {"objects": [icsp("old")], "settings": newest}
}

test_sets_alone_are_fine if {
	count(p.deny) == 0 with input as {"objects": [idms("a"), itms("b")], "settings": newest}
}

test_unknown_apiversion_does_not_count if {
	bad := object.union(idms("a"), {"known": false})
	count(p.deny) == 0 with input as {"objects": [icsp("old"), bad], "settings": newest}
}
