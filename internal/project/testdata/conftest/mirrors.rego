# Four checks of mirrorlint's, written for conftest's combined input (an
# array of {path, contents}, one per document): what BenchmarkCache10k's
# Conftest run evaluates over the 10,000-file tree, as a team without
# mirrorlint would. Upper-case repository paths, an ICSP beside IDMS or
# ITMS, a digest in a source, NeverContactSource without mirrors.
package main

import rego.v1

sets contains d if {
	some f in input
	d := f.contents
	d.kind in {"ImageDigestMirrorSet", "ImageTagMirrorSet", "ImageContentSourcePolicy"}
}

sources contains [d.metadata.name, s] if {
	some d in sets
	some m in object.get(d.spec, "imageDigestMirrors", object.get(d.spec, "imageTagMirrors", object.get(d.spec, "repositoryDigestMirrors", [])))
	s := m.source
}

deny contains msg if {
	some [name, s] in sources
	parts := split(s, "/")
	count(parts) > 1
	rest := concat("/", array.slice(parts, 1, count(parts)))
	rest != lower(rest)
	msg := sprintf("%s: repository path of source %q has upper-case letters", [name, s])
}

deny contains msg if {
	some d in sets
	d.kind == "ImageContentSourcePolicy"
	some e in sets
	e.kind != "ImageContentSourcePolicy"
	msg := sprintf("ICSP %s mixed with %s %s", [d.metadata.name, e.kind, e.metadata.name])
}

deny contains msg if {
	some [name, s] in sources
	contains(s, "@")
	msg := sprintf("%s: source %q names a digest", [name, s])
}

deny contains msg if {
	some d in sets
	d.kind == "ImageDigestMirrorSet"
	some m in d.spec.imageDigestMirrors
	count(object.get(m, "mirrors", [])) == 0
	object.get(m, "mirrorSourcePolicy", "") == "NeverContactSource"
	msg := sprintf("%s: NeverContactSource without mirrors for %s", [d.metadata.name, m.source])
}
