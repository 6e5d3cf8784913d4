package mco

// The admin-ack gate MCO 4.20 raises when the cluster has
// ImageContentSourcePolicy or ImageDigestMirrorSet objects, holding the
// update to 4.21 (which verifies the release's sigstore signatures) until
// an administrator acknowledges it: the key of the admin-acks ConfigMap
// entry and the message MCO gives (pkg/controller/container-runtime-config).
const (
	SigstoreAckKey     = "ack-4.20-sigstore-in-4.21"
	SigstoreAckMessage = "This cluster has mirrors configured. 4.21 will require Sigstore signatures for " + DefaultPolicyScope + " release verification. Please ensure that any registries configured as mirrors of " + DefaultPolicyScope + " images contain the Sigstore signature images associated with any release images before updating to 4.21. See https://docs.redhat.com/en/documentation/openshift_container_platform/4.20/html/nodes/nodes-sigstore-using.html#nodes-sigstore-prepare-for-4.21_nodes-sigstore-using for more details."
)
