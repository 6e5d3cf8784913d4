package acme.mirrors_test

import data.acme.mirrors

test_mirror_elsewhere_denied if {
	some f in mirrors.deny with input as {"objects": [{"kind": "ImageDigestMirrorSet", "name": "x", "spec": {"imageDigestMirrors": [{"source": "quay.io/a", "mirrors": ["quay.io/b"]}]}}]}
	f.path == "spec.imageDigestMirrors[0].mirrors[0]"
}

test_acme_mirror_allowed if {
	count(mirrors.deny) == 0 with input as {"objects": [{"kind": "ImageDigestMirrorSet", "name": "x", "spec": {"imageDigestMirrors": [{"source": "quay.io/a", "mirrors": ["registry.acme.example/a"]}]}}]}
}
