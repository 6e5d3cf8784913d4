package mirrorlint.lib.scope_test

import data.mirrorlint.lib.scope

test_within_same if scope.within("quay.io/org", "quay.io/org")

test_within_below if scope.within("quay.io/org/app", "quay.io/org")

test_normalized_trailing_slash if scope.within("quay.io/org/app", scope.normalized("quay.io/org/"))

test_not_within_sibling_prefix if not scope.within("quay.io/organisation", "quay.io/org")

test_not_within_parent if not scope.within("quay.io", "quay.io/org")

test_wildcard_host if scope.within("mirror.corp.example:5000/ocp", "*.corp.example")

test_wildcard_not_bare_domain if not scope.within("corp.example/ocp", "*.corp.example")

test_wildcard_not_in_path if not scope.within("evil.io/x.corp.example", "*.corp.example")

test_entry_list_by_kind if {
	scope.entry_list({"kind": "ImageTagMirrorSet", "spec": {"imageTagMirrors": [{"source": "a.io"}]}}) == [{"source": "a.io"}]
}

test_entry_list_other_kind if scope.entry_list({"kind": "Image", "spec": {}}) == []
