// Package policies is the Rego library shipped inside the mirrorlint binary.
// The files are plain Rego v1 modules with their _test.rego unit tests; the
// policy engine (internal/policy) compiles them beside the user's own
// policies, and `mirrorlint verify` runs their tests.
//
// Every package lives under data.mirrorlint.lib, a prefix reserved for this
// library: user policies may not declare packages under data.mirrorlint, and
// data files may only set the configuration keys the library reads
// (data.mirrorlint.allowed_mirror_registries, never_contact_sources,
// no_tag_mirror_sources).
package policies

import "embed"

// FS holds the library's .rego files (policies and their tests) at its root.
//
//go:embed *.rego
var FS embed.FS

// Dir is the name the library's files are reported under, so that a
// message about one of them reads "policies/scope.rego:12".
const Dir = "policies"
