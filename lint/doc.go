// Package lint checks OpenShift image-mirroring manifests the way the API
// server, the Machine Config Operator (MCO) and the nodes would treat them,
// before a cluster sees them.
//
// # The model
//
// A Linter is built once with New from options (the cluster's release
// image and OpenShift version, a .mirrorlint.yaml file, Rego policy
// directories and data files). It compiles every policy once and can then
// lint any number of trees, from any number of goroutines: what varies per
// tree is given to each call as a CallOption (RootDir, OnlyCluster,
// ContextDir), the way OPA's rego separates preparing a query from
// evaluating it.
//
// Lint reads a tree (YAML and JSON files, multi-document files, kind: List,
// kustomize overlays, several clusters per repository) and finds the
// clusters in it: those the config file declares, one per top-level
// kustomization, one per directory of the usual layouts (clusters/<name>,
// overlays/<name>, sites/<name>, environments/<name>, envs/<name>), one per
// ACM policy, and the rest of the tree as one more. For each
// cluster it renders what MCO would write to every node (package render) or
// the refusal MCO would log, and runs the built-in rules and the policies on
// the cluster's objects and render. LintReader does the same for a stream,
// such as the output of kustomize build, under the name the call gives it.
//
// The Result holds every Finding, each pointing at the file, line and column
// of the value it is about (a value set by a kustomize patch is reported on
// the patch), merged across clusters: a finding on a base shared by several
// overlays is reported once and lists every cluster it affects. It also
// holds each cluster's render. Result.Fails says whether a finding at or
// above a severity remains once suppressions are applied.
//
// The library reads only what it is given: it never looks up a config file
// from the working directory or asks git anything. The mirrorlint command
// decides those (the nearest .mirrorlint.yaml, the repository's top level,
// which names the clusters: RootDir) and passes them in.
//
// # Stability
//
// The API is v0: it may still change until the module is tagged v1. The
// names in this package and in package render are the ones outside code is
// expected to rely on.
package lint
