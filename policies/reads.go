package policies

// Reads are the object kinds the library's policies read from
// input.objects. A run without the team's own policies parses nothing
// else for them; TestReadsDeclared keeps this list in step with the kinds
// the .rego files name.
var Reads = []string{"ImageContentSourcePolicy", "ImageDigestMirrorSet", "ImageTagMirrorSet"}

// Fields are the members of the input document the library's policies
// read. A run without the team's own policies builds only these (the
// render as data, input.rendered, is the costly one on a large cluster
// and no library policy reads it); TestFieldsDeclared checks every
// reference to input in the .rego files against this list.
var Fields = []string{"objects", "settings"}
