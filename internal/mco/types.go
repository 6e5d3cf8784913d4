package mco

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

	// ClusterImagePolicies and ImagePolicies are the signature policies MCO
	// reads, in their config/v1 form (convert a v1alpha1 object of a
	// 4.18–4.19 TechPreviewNoUpgrade cluster first). Only give the ones the
	// cluster serves; releases before 4.18 are rendered without them.
	ClusterImagePolicies []*configv1.ClusterImagePolicy
	ImagePolicies        []*configv1.ImagePolicy
	// DefaultPolicy adds the ClusterImagePolicy "openshift" that the
	// cluster-version operator installs from the payload and that is never
	// in Git (see DefaultPolicyInstalled); it takes the place of a
	// ClusterImagePolicy of that name in ClusterImagePolicies, as the
	// operator overwrites such an object.
	DefaultPolicy bool
	// RegistryCAs is the data of the ConfigMap in openshift-config that
	// Image/cluster spec.additionalTrustedCA names (key → PEM bundle); nil
	// when the spec names none or the tree does not hold it.
	RegistryCAs map[string]string
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
	Warnings []Finding

	// SigstoreRegistriesYAML is
	// /etc/containers/registries.d/sigstore-registries.yaml, which makes
	// the node look for sigstore signatures as attachments of every policy
	// scope and of every mirror a pull from one can reach; nil when MCO
	// writes none (no signature policy).
	SigstoreRegistriesYAML []byte
	// CRIOPolicies maps a namespace to /etc/crio/policies/<namespace>.json,
	// the policy.json CRI-O uses for that namespace's pods: the cluster-wide
	// one plus the namespace's ImagePolicy scopes. Nil when there is none.
	CRIOPolicies map[string][]byte
	// ImagePolicyStatuses are the status conditions MCO sets on
	// ImagePolicies, in Input order.
	ImagePolicyStatuses []ImagePolicyStatus
	// DefaultPolicy is true when the default "openshift" ClusterImagePolicy
	// took part in the render (Input.DefaultPolicy on a release that has
	// signature policies).
	DefaultPolicy bool
	// RegistryCAFiles maps a registry directory (host or host:port) to
	// the /etc/docker/certs.d/<dir>/ca.crt the daemon writes from
	// Input.RegistryCAs (see CertsD); nil when there is none. They are no
	// MachineConfig: changing them drains and reboots nothing.
	RegistryCAFiles map[string][]byte
}

// ImagePolicyStatus is the status condition MCO writes on an ImagePolicy
// whose scopes equal or lie inside a ClusterImagePolicy scope: those scopes
// are dropped from the namespace's policy, and MCO never clears the
// condition once the conflict is gone.
type ImagePolicyStatus struct {
	Namespace, Name string
	// Index is the object's index in Input.ImagePolicies.
	Index int
	// Scopes are the indexes in spec.scopes of the conflicting scopes.
	Scopes []int
	// The condition: Type "Pending", Status "False", Reason
	// "ConflictScopes" and MCO's message.
	Type, Status, Reason, Message string
}

// String is the condition as "namespace/name: type=… status=… reason=…
// message=…".
func (s ImagePolicyStatus) String() string {
	return fmt.Sprintf("%s/%s: type=%s status=%s reason=%s message=%s", s.Namespace, s.Name, s.Type, s.Status, s.Reason, s.Message)
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

// Finding is a message about a subject (a warning MCO logs, or a value
// MCO refuses; see Plan.PolicyScopeFindings), with the other values involved.
type Finding struct {
	Message string
	Subject Subject
	Related []Subject
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
	// Related are other values involved, e.g. the blocked registry a
	// policy scope lies in; the first one stands in for Subject when that
	// names an object that is not in the tree (the default policy).
	Related []Subject
	// ImagePolicyStatuses are the conditions MCO had already set on
	// ImagePolicies when it refused (it sets them first).
	ImagePolicyStatuses []ImagePolicyStatus
}

func (r *Refusal) Error() string {
	if r.Prefix == "" {
		return r.Reason
	}
	return fmt.Sprintf("%s: %s", r.Prefix, r.Reason)
}
