package render

import (
	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/internal/mco"
)

// The types of a render. They are defined with the model of MCO that
// computes them (an internal package shared with mirrorlint's rules, so the
// files and the rules come from one computation); these names are their
// public, stable spelling.
type (
	// Input is one cluster's state as MCO's image-config sync sees it: the
	// mirror sets, the spec of Image/cluster, the release image and
	// version, and the signature policies the cluster serves.
	Input = mco.Input
	// Output is what the nodes get: registries.conf, the search-registries
	// drop-in, policy.json, the sigstore registries.d file, CRI-O's
	// per-namespace policies, and what MCO logs while still rendering.
	Output = mco.Output
	// Refusal is MCO refusing to render: it logs Error() and keeps the
	// previous MachineConfig, so every later registry change silently
	// stops applying. Subject names the value to fix.
	Refusal = mco.Refusal
	// Subject points at the value a refusal or warning is about: the
	// object (a Kind constant and the index into the corresponding Input
	// slice) and the field path inside it, e.g.
	// "spec.imageDigestMirrors[2].mirrors[0]".
	Subject = mco.Subject
	// Finding is a message MCO logs about a subject while still rendering,
	// with the other values involved.
	Finding = mco.Finding
	// ImagePolicyStatus is the status condition MCO writes on an
	// ImagePolicy whose scopes equal or lie inside a ClusterImagePolicy
	// scope.
	ImagePolicyStatus = mco.ImagePolicyStatus
	// Version is an OpenShift 4.y[.z] release; it picks the encoding and
	// the checks of that release.
	Version = mco.Version
)

// Oldest and Newest bound the releases whose behaviour is modelled.
var (
	Oldest = mco.Oldest
	Newest = mco.Newest
)

// The kinds a Subject names.
const (
	KindICSP               = mco.KindICSP
	KindIDMS               = mco.KindIDMS
	KindITMS               = mco.KindITMS
	KindImage              = mco.KindImage
	KindClusterImagePolicy = mco.KindClusterImagePolicy
	KindImagePolicy        = mco.KindImagePolicy
)

// Refusal prefixes: how MCO wraps the reason depending on the file it was
// editing when it gave up.
const (
	PrefixRegistries      = mco.PrefixRegistries
	PrefixPolicy          = mco.PrefixPolicy
	PrefixNamespacePolicy = mco.PrefixNamespacePolicy
)

// ReasonReleaseImage is MCO's (unwrapped) reason when ClusterVersion's
// desired image cannot be parsed.
const ReasonReleaseImage = mco.ReasonReleaseImage

// The ImagePolicy condition MCO sets on a scope conflict.
const (
	ConditionPending     = mco.ConditionPending
	ReasonConflictScopes = mco.ReasonConflictScopes
)

// DefaultPolicyName and DefaultPolicyScope name the ClusterImagePolicy the
// cluster-version operator installs from the payload, and its one scope.
const (
	DefaultPolicyName  = mco.DefaultPolicyName
	DefaultPolicyScope = mco.DefaultPolicyScope
)

// Render computes what MCO's image-config sync writes for the cluster state
// in, or the *Refusal with which it gives up (MCO then keeps the previous
// MachineConfig).
func Render(in Input) (*Output, error) { return mco.Render(in) }

// ParseVersion reads "4.19" or "4.13.26" (a leading "v" is accepted).
func ParseVersion(s string) (Version, error) { return mco.ParseVersion(s) }

// DefaultPolicyInstalled reports whether a cluster of release v with
// featureSet has the default ClusterImagePolicy installed by the
// cluster-version operator.
func DefaultPolicyInstalled(v Version, featureSet string) bool {
	return mco.DefaultPolicyInstalled(v, featureSet)
}

// DefaultClusterImagePolicy is the ClusterImagePolicy "openshift" as the
// payload installs it.
func DefaultClusterImagePolicy() *configv1.ClusterImagePolicy { return mco.DefaultClusterImagePolicy() }
