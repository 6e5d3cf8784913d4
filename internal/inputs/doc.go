// Package inputs reads the mirror inputs that are not mirror objects and
// that decide what a cluster's nodes pull before any day-2 object exists:
//
//   - openshift-install's install-config.yaml (imageDigestSources, the
//     deprecated imageContentSources, additionalTrustBundlePolicy), alone
//     or in an agent-based installer directory beside agent-config.yaml;
//   - the hub's AgentServiceConfig spec.mirrorRegistryRef ConfigMap, a
//     registries.conf that assisted-service turns into every spoke's
//     imageDigestSources;
//   - ZTP SiteConfig / ClusterInstance installConfigOverrides (package
//     sites), decoded by assisted-service over the hub's mirrors, and the
//     install-config-overrides annotation of a hand-written
//     AgentClusterInstall, decoded over its own mirrorRegistryRef
//     ConfigMap's mirrors when it names one, else the hub's;
//   - HyperShift HostedCluster spec.imageContentSources and NodePool
//     spec.config (the ConfigMaps it names).
//
// A created cluster is checked as the release its inputs name: a spoke's
// is its ClusterImageSet's (imageset.go), a hosted cluster's its release
// image's.
//
// Each is validated as the component that reads it does, with that
// component's wording (Finding), and turned into the cluster it creates
// (Cluster): the mirror objects the installer or HyperShift writes,
// serialized as they serialize them, and, for an installer cluster, the
// bootstrap node's registries.conf, which the installer writes from its
// own template rather than through MCO.
//
// A tree is read from a manifest.Set loaded with manifest.UnmodelledAll,
// so that the objects of these kinds are kept whole.
package inputs
