package manifest

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// KindConfigMap is the core ConfigMap. The loader has no type for it, but
// keeps the platform's own whole (see IsPlatformConfigMap).
const KindConfigMap = "ConfigMap"

// Namespaces whose ConfigMaps decide what the nodes do.
const (
	// NamespaceOpenShiftConfig holds the registry CAs Image/cluster
	// spec.additionalTrustedCA names.
	NamespaceOpenShiftConfig = "openshift-config"
	// NamespaceMCO holds the daemon's drain override
	// (image-registry-override-drain, 4.17–4.19).
	NamespaceMCO = "openshift-machine-config-operator"
)

// IsPlatformConfigMap reports whether an object is a ConfigMap of the
// platform's own namespaces (openshift-*), which every load keeps whole as
// an unmodelled object: the registry CAs and the drain override live
// there, and a CA committed to the wrong one (openshift-image-registry) is
// found. Application ConfigMaps (other namespaces, or none written) are
// kept only on request (Options.Unmodelled). Unmodelled objects never make
// a directory a cluster, and their kind only takes part in name references
// as a referral, which rewrites nothing they hold but their name (see the
// fast builds of package build).
func IsPlatformConfigMap(apiVersion, kind, namespace string) bool {
	return kind == KindConfigMap && apiVersion == "v1" && strings.HasPrefix(namespace, "openshift-")
}

// namespaceOf is an object node's metadata.namespace, "" when unset.
func namespaceOf(n *yaml.Node) string {
	if m := deref(mapValue(n, "metadata")); m != nil {
		if v := deref(mapValue(m, "namespace")); v != nil && v.Kind == yaml.ScalarNode {
			return v.Value
		}
	}
	return ""
}

// Namespace is the object's metadata.namespace, "" when unset.
func (o *Object) Namespace() string {
	md, _ := o.Content["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	return ns
}
