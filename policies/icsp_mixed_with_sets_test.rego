package mirrorlint.lib.icsp_mixed_with_sets_test

import data.mirrorlint.lib.icsp_mixed_with_sets as p

icsp := {"kind": "ImageContentSourcePolicy", "name": "old", "known": true}

idms := {"kind": "ImageDigestMirrorSet", "name": "new", "known": true}

itms := {"kind": "ImageTagMirrorSet", "name": "tags", "known": true}

settings(v, minor, patch) := {"openshiftVersion": v, "version": {"major": 4, "minor": minor, "patch": patch}}

test_mix_reports_every_object if {
	fs := p.deny with input as {"objects": [icsp, idms, itms], "settings": settings("4.19", 19, -1)}
	count(fs) == 3
	{[f.object.kind, f.object.name] | some f in fs} == {
		["ImageContentSourcePolicy", "old"],
		["ImageDigestMirrorSet", "new"],
		["ImageTagMirrorSet", "tags"],
	}
	every f in fs {
		f.rule == "icsp-mixed-with-sets"
		f.path == "kind"
		contains(f.msg, "OpenShift 4.13.0–4.13.26 refuses the mix outright")
		contains(f.msg, "mirrorlint migrate")
		not contains(f.msg, "is one of them")
	}
}

test_icsp_finding_names_the_sets_and_relates_them if {
	some f in p.deny with input as {"objects": [icsp, idms, itms], "settings": settings("4.19", 19, -1)}
	f.object.name == "old"
	startswith(f.msg, "ImageContentSourcePolicy/old exists together with ImageDigestMirrorSet/new and 1 more")
	count(f.related) == 2
}

test_affected_target_is_named if {
	some f in p.deny with input as {"objects": [icsp, idms], "settings": settings("4.13.20", 13, 20)}
	contains(f.msg, "(the target OpenShift 4.13.20 is one of them)")
}

test_fixed_413_patch_not_named if {
	some f in p.deny with input as {"objects": [icsp, idms], "settings": settings("4.13.27", 13, 27)}
	not contains(f.msg, "is one of them")
}

test_icsp_alone_is_fine if {
	count(p.deny) == 0 with input as {"objects": [icsp], "settings": settings("4.19", 19, -1)}
}

test_sets_alone_are_fine if {
	count(p.deny) == 0 with input as {"objects": [idms, itms], "settings": settings("4.19", 19, -1)}
}

test_unknown_apiversion_does_not_count if {
	bad := object.union(idms, {"known": false})
	count(p.deny) == 0 with input as {"objects": [icsp, bad], "settings": settings("4.19", 19, -1)}
}
