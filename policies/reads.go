package policies

// Reads are the object kinds the library's policies read from
// input.objects (they also read input.rendered, the render, whose kinds
// every run needs anyway). A run without the team's own policies parses
// nothing else for them; TestReadsDeclared keeps this list in step with
// the kinds the .rego files name.
var Reads = []string{"ImageContentSourcePolicy", "ImageDigestMirrorSet", "ImageTagMirrorSet"}
