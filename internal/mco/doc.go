// Package mco is mirrorlint's one model of what the Machine Config
// Operator's image-config sync does with a cluster's image-mirroring
// objects: validation with MCO's messages, the payload rule, the
// topological mirror merge, scope nesting and propagation, the signature
// requirements, and the encoding of every node file per OpenShift release.
//
// NewPlan computes, once per cluster, what MCO decides before it writes a
// file (a Plan); Render writes the files from it. The public package render
// is the face of this one for importers; mirrorlint's rules read the Plan,
// so the files and the rules never disagree about what MCO does.
package mco
