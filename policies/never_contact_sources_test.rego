package mirrorlint.lib.never_contact_sources_test

import data.mirrorlint.lib.never_contact_sources as p

listed := ["quay.io/openshift-release-dev"]

entry(kind, field, e) := {"kind": kind, "name": "x", "spec": {field: [e]}}

test_off_without_data if {
	o := entry("ImageDigestMirrorSet", "imageDigestMirrors", {"source": "quay.io/openshift-release-dev", "mirrors": ["m.io/r"]})
	count(p.deny) == 0 with input as {"objects": [o]}
}

test_missing_policy_points_at_source if {
	o := entry("ImageDigestMirrorSet", "imageDigestMirrors", {"source": "quay.io/openshift-release-dev/ocp-release", "mirrors": ["m.io/r"]})
	fs := p.deny with input as {"objects": [o]} with data.mirrorlint.never_contact_sources as listed
	count(fs) == 1
	some f in fs
	f.rule == "never-contact-required"
	f.path == "spec.imageDigestMirrors[0].source"
}

test_allow_policy_points_at_policy if {
	o := entry("ImageTagMirrorSet", "imageTagMirrors", {"source": "quay.io/openshift-release-dev", "mirrors": ["m.io/r"], "mirrorSourcePolicy": "AllowContactingSource"})
	some f in p.deny with input as {"objects": [o]} with data.mirrorlint.never_contact_sources as listed
	f.path == "spec.imageTagMirrors[0].mirrorSourcePolicy"
}

test_never_contact_passes if {
	o := entry("ImageDigestMirrorSet", "imageDigestMirrors", {"source": "quay.io/openshift-release-dev", "mirrors": ["m.io/r"], "mirrorSourcePolicy": "NeverContactSource"})
	count(p.deny) == 0 with input as {"objects": [o]} with data.mirrorlint.never_contact_sources as listed
}

test_unlisted_source_passes if {
	o := entry("ImageDigestMirrorSet", "imageDigestMirrors", {"source": "quay.io/other", "mirrors": ["m.io/r"]})
	count(p.deny) == 0 with input as {"objects": [o]} with data.mirrorlint.never_contact_sources as listed
}

test_icsp_for_listed_source_denied if {
	o := entry("ImageContentSourcePolicy", "repositoryDigestMirrors", {"source": "quay.io/openshift-release-dev/ocp-release", "mirrors": ["m.io/r"]})
	some f in p.deny with input as {"objects": [o]} with data.mirrorlint.never_contact_sources as listed
	f.path == "spec.repositoryDigestMirrors[0].source"
	contains(f.msg, "mirrorlint migrate")
}
