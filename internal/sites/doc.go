// Package sites reads the ZTP spoke clusters a hub tree declares: every
// cluster entry of a SiteConfig (ran.openshift.io/v1, rendered by the ztp
// siteconfig-generator up to ztp-site-generate 4.20) and every
// ClusterInstance (siteconfig.open-cluster-management.io/v1alpha1,
// rendered by the SiteConfig operator), with the labels its ManagedCluster
// gets and its installConfigOverrides, everything positioned in the file;
// and every AgentClusterInstall written by hand
// (extensions.hive.openshift.io/v1beta1), with its install-config-overrides
// annotation read as an installConfigOverrides is, and the labels of the
// ManagedCluster written for it.
//
// API:
//
//	sites.Kinds                       // the kinds to keep when loading
//	sites.From(objs) ([]*Site, []Problem)
//	                                  // the sites of loaded objects (a load with
//	                                  // manifest.UnmodelledAll keeps them whole)
//	sites.AgentClusterInstalls(objs) ([]*Site, []Problem)
//	                                  // the hand-written AgentClusterInstalls,
//	                                  // as sites labelled by their
//	                                  // ManagedClusters among objs
//	site.Name, site.Namespace         // clusterName (an AgentClusterInstall's
//	                                  // ClusterDeployment), the object's namespace
//	site.Kind                         // "SiteConfig", "ClusterInstance" or
//	                                  // "AgentClusterInstall"
//	site.Object, site.Path            // the object; the site's mapping in it:
//	                                  // spec.clusters[i] or spec
//	site.Labels                       // the ManagedCluster's labels as the
//	                                  // generator/operator writes them, and
//	                                  // name and the cluster set, which the
//	                                  // hub adds
//	site.HubLabels                    // labels whose values only the hub
//	                                  // knows: clusterID, the version, ...
//	site.LabelPos(key)                // where a label is written
//	site.Overrides                    // nil without installConfigOverrides
//	site.Overrides.Annotation()       // the AgentClusterInstall annotation value
//	site.MirrorRegistryRef            // an AgentClusterInstall's mirror ConfigMap
//	site.ManagedCluster               // an AgentClusterInstall's ManagedCluster,
//	                                  // nil when the tree holds none
//	site.Overrides.Locate(path)       // a JSON path ("imageDigestSources[0].mirrors")
//	                                  // → file position
//
// Labels follow what reaches the ManagedCluster, which placements and
// policy bindings select on:
//   - SiteConfig: spec.clusters[].clusterLabels, the template's only labels;
//   - ClusterInstance: the default template's own labels (cloud and vendor,
//     "auto-detect" until ACM imports the cluster and fills them in), then
//     spec.extraLabels.ManagedCluster for the keys the template does not
//     set (the operator lets the template's labels win);
//   - hand-written AgentClusterInstall: the metadata.labels of the
//     ManagedCluster named after its cluster (the nearest of several),
//     none without one (Labels nil: unknown, not empty);
//   - all: the hub sets name (the cluster's name) and the cluster set
//     ("default" when unset); it replaces a cloud or vendor of
//     "auto-detect" with what it finds on the cluster, and sets
//     clusterID, the OpenShift version and one label per add-on from the
//     cluster. Those found on the cluster are HubLabels, not Labels (see
//     hublabels.go for what was read of the hub's controllers).
//
// A ClusterInstance rendered from a custom templateRefs set gets that
// template's labels, which the tree does not show: Labels then holds only
// the extraLabels (and the import's) and TemplateKnown is false.
package sites
