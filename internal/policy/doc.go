// Package policy runs Rego policies over a cluster's mirror objects and
// their rendered registries.conf: the built-in library in policies/ and the
// team's own policy directories.
//
// Everything expensive happens once, in Load: parsing, compiling with the
// hermetic capabilities, and preparing one query that reads the deny, warn
// and info sets of every package. Evaluate then runs that prepared query
// once per cluster, under a time limit, and turns each member of those sets
// into a lint.Finding positioned through the object's YAML nodes, exactly
// as the Go rules position theirs.
package policy
