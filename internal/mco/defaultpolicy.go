package mco

import (
	"encoding/base64"

	configv1 "github.com/openshift/api/config/v1"
)

// DefaultPolicyName is the ClusterImagePolicy the cluster-version operator
// installs from the release payload (openshift/cluster-update-keys,
// manifests.rhel/0000_90_openshift-cluster-image-policy.yaml): it makes
// every node verify Red Hat's sigstore signatures on the release image.
const DefaultPolicyName = "openshift"

// DefaultPolicyScope is the one scope of the default policy.
const DefaultPolicyScope = "quay.io/openshift-release-dev/ocp-release"

// redHatReleaseKey is the keyData of the default policy (base64 of Red Hat's
// PEM release signing key), identical in the 4.18–4.22 payload manifests.
const redHatReleaseKey = "LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUlJQ0lqQU5CZ2txaGtpRzl3MEJBUUVGQUFPQ0FnOEFNSUlDQ2dLQ0FnRUEwQVN5dUgyVExXdkJVcVBIWjRJcAo3NWc3RW5jQmtnUUhkSm5qenhBVzVLUVRNaC9zaUJvQi9Cb1NydGlQTXduQ2hiVENuUU9JUWVadURpRm5odUo3Ck0vRDNiN0pvWDBtMTIzTmNDU242N21BZGpCYTZCZzZrdWtaZ0NQNFpVWmVFU2FqV1gvRWp5bEZjUkZPWFc1N3AKUkRDRU40MkovallsVnF0K2c5K0dya2VyOFN6ODZIM2wwdGJxT2RqYnovVnhIWWh3RjBjdFVNSHN5VlJEcTJRUAp0cXpOWGxtbE1oUy9Qb0ZyNlI0dS83SENuL0srTGVnY08yZkFGT2I0MEt2S1NLS1ZENmxld1VaRXJob3AxQ2dKClhqRHRHbW1POWRHTUY3MW1mNkhFZmFLU2R5K0VFNmlTRjJBMlZ2OVFoQmF3TWlxMmtPekVpTGc0bkFkSlQ4d2cKWnJNQW1QQ3FHSXNYTkdaNC9RK1lUd3dsY2UzZ2xxYjVMOXRmTm96RWRTUjlOODVERVNmUUxRRWRZM0NhbHdLTQpCVDFPRWhFWDF3SFJDVTRkck1PZWo2Qk5XMFZ0c2NHdEhtQ3JzNzRqUGV6aHdOVDh5cGt5UytUMHpUNFRzeTZmClZYa0o4WVNIeWVuU3pNQjJPcDJidnNFM2dyWStzNzRXaEc5VUlBNkRCeGNUaWUxNU5Tekt3Znphb05XT0RjTEYKcDdCWThhYUhFMk1xRnhZRlgrSWJqcGtRUmZhZVFRc291REZkQ2tYRUZWZlBwYkQyZGs2RmxlYU1UUHV5eHRJVApnalZFdEdRSzJxR0NGR2lRSEZkNGhmVitlQ0E2M0pybzF6MHpvQk01QmJJSVEzK2VWRnd0M0FsWnA1VVZ3cjZkCnNlY3FraS95cm12M1kwZHFaOVZPbjNVQ0F3RUFBUT09Ci0tLS0tRU5EIFBVQkxJQyBLRVktLS0tLQ=="

// DefaultPolicyInstalled reports whether the cluster-version operator of
// release v installs the default ClusterImagePolicy on a self-managed
// cluster with the given feature set ("" means Default): on every 4.21+
// cluster, and on 4.18–4.20 only with TechPreviewNoUpgrade (the manifest
// carries release.openshift.io/feature-set: TechPreviewNoUpgrade there).
// HyperShift hosted clusters never get it, and a ClusterVersion override
// that marks it unmanaged leaves it to the administrator. A zero v (a
// library caller's, through render) is the newest release.
func DefaultPolicyInstalled(v Version, featureSet string) bool {
	v = v.OrNewest()
	if v.AtLeast(21) {
		return true
	}
	return v.AtLeast(18) && featureSet == "TechPreviewNoUpgrade"
}

// DefaultClusterImagePolicy returns the default policy as the cluster holds
// it (in the config/v1 form; 4.18–4.19 install the same content as
// v1alpha1).
func DefaultClusterImagePolicy() *configv1.ClusterImagePolicy {
	key, err := base64.StdEncoding.DecodeString(redHatReleaseKey)
	if err != nil {
		panic("mco: the embedded release key is not base64: " + err.Error())
	}
	p := &configv1.ClusterImagePolicy{
		Spec: configv1.ClusterImagePolicySpec{
			Scopes: []configv1.ImageScope{DefaultPolicyScope},
			Policy: configv1.Policy{RootOfTrust: configv1.PolicyRootOfTrust{
				PolicyType: configv1.PublicKeyRootOfTrust,
				PublicKey:  &configv1.PublicKey{KeyData: key},
			}},
		},
	}
	p.APIVersion, p.Kind, p.Name = "config.openshift.io/v1", "ClusterImagePolicy", DefaultPolicyName
	return p
}
