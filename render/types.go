package render

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
)

// Input is one cluster's state as MCO's image-config sync sees it.
type Input struct {
	ICSPs []*operatorv1alpha1.ImageContentSourcePolicy
	IDMSs []*configv1.ImageDigestMirrorSet
	ITMSs []*configv1.ImageTagMirrorSet
	// Image is the spec of Image/cluster; nil stands for an Image/cluster
	// with an empty spec (every cluster has one).
	Image *configv1.ImageSpec
	// ReleaseImage is ClusterVersion status.desired.image. Empty means
	// unknown: the payload rule is skipped (MCO would refuse an empty one).
	ReleaseImage string
	Version      Version
}

// Output is what the nodes get.
type Output struct {
	// Generated is true when MCO writes registries.conf; false when the node
	// keeps the template bytes (RegistriesConf then holds those bytes).
	Generated      bool
	RegistriesConf []byte
	// SearchRegistriesConf is the drop-in
	// /etc/containers/registries.conf.d/01-image-searchRegistries.conf, nil
	// when MCO does not write it.
	SearchRegistriesConf []byte
	// PolicyJSON is /etc/containers/policy.json, nil when MCO does not
	// write it (no blocked or allowed registry left after the payload
	// rule): the node then keeps the template.
	PolicyJSON []byte
	// Warnings are what MCO logs while still rendering (payload rule).
	Warnings []Warning
}

// Subject points at the value a refusal or warning is about: the object
// (by kind and index into the corresponding Input slice, or KindImage with
// index 0) and the field path inside it, in the dotted form
// "spec.imageDigestMirrors[2].mirrors[0]".
type Subject struct {
	Kind  string
	Index int
	Path  string
}

// Warning is what MCO logs about a subject while it still renders.
type Warning struct {
	Message string
	Subject Subject
}

// Refusal is MCO refusing to render: it logs Error() and keeps the previous
// MachineConfig, so every later registry change silently stops applying.
type Refusal struct {
	// Prefix is MCO's wrapping ("could not update registries config with new
	// changes"), empty when MCO returns the reason bare.
	Prefix string
	// Reason is MCO's own message, e.g. `invalid format for source "x"`.
	Reason  string
	Subject Subject
}

func (r *Refusal) Error() string {
	if r.Prefix == "" {
		return r.Reason
	}
	return fmt.Sprintf("%s: %s", r.Prefix, r.Reason)
}
