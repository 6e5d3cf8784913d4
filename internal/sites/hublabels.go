package sites

import (
	"slices"
	"strings"
)

// The labels a spoke's ManagedCluster carries are those it is written
// with (a site's, its template's, a hand-written ManagedCluster's) and
// those the hub puts on it, which are not in the tree. Which the hub puts,
// as read in the hub's own controllers (Aug 2026: ocm main 00f84c32,
// stolostron/managedcluster-import-controller main 3cd774d7,
// stolostron/multicloud-operators-foundation main 29ea877d; the
// siteconfig-generator's ManagedCluster template in cnf-features-deploy
// just before its removal, 4af8038e3^):
//
//   - name: the import controller merges name=<the ManagedCluster's name>
//     into its labels each time it reconciles it, over any value written
//     there; a different written value is put back by whatever applies
//     the ManagedCluster (Argo CD, the SiteConfig operator), and the two
//     take turns (inferred, not seen run), so its value is then the hub's
//     to know;
//   - cluster.open-cluster-management.io/clusterset: the registration
//     webhook sets it to "default" on create and update when it is absent
//     or empty (feature gate DefaultClusterSet, on by default);
//   - cloud and vendor: the cluster-info controller replaces a value of
//     "auto-detect" with what the cluster reports; any other value is
//     left alone, and it never adds either label to a ManagedCluster
//     written without it (the SiteConfig generator's template writes
//     neither; the ClusterInstance default template writes both as
//     "auto-detect");
//   - clusterID, and openshiftVersion, openshiftVersion-major and
//     openshiftVersion-major-minor: set by that controller from what the
//     cluster reports (its ID, its version claim), over any written value;
//   - feature.open-cluster-management.io/addon-<name>: the registration's
//     add-on discovery sets one per add-on of the cluster, its value the
//     add-on's health (available, unhealthy, unreachable), and removes it
//     with the add-on: which ones exist is the hub's to know too.
//
// Not modelled: managed-by (OpenShift Dedicated only), microshiftVersion
// (MicroShift only) and local-cluster (the hub itself), none of which a
// ZTP spoke gets.

// NameLabel is the label ACM's import sets to the managed cluster's name.
const NameLabel = "name"

// ClusterSetLabel names a managed cluster's ManagedClusterSet; the
// registration webhook gives it defaultClusterSet when unset.
const ClusterSetLabel = "cluster.open-cluster-management.io/clusterset"

const defaultClusterSet = "default"

// AutoDetect is the value of cloud or vendor that ACM's import replaces
// with what the cluster reports.
const AutoDetect = "auto-detect"

// AddonLabels stands in HubLabels for the add-on labels, one per add-on
// (feature.open-cluster-management.io/addon-<name>): neither which exist
// nor their values are known offline (ztp.Selector.Decide reads an entry
// ending in "*" so).
const AddonLabels = addonPrefix + "*"

const addonPrefix = "feature.open-cluster-management.io/addon-"

// detectable are the labels whose "auto-detect" the import replaces.
var detectable = []string{"cloud", "vendor"}

// fromCluster are the labels the import always sets from the cluster.
var fromCluster = []string{"clusterID", "openshiftVersion", "openshiftVersion-major", "openshiftVersion-major-minor"}

// hubLabels applies to the written labels what the hub does to them: the
// labels whose values it gives are set, those whose values only it knows
// leave Labels for HubLabels (sorted).
func (s *Site) hubLabels() {
	if s.Name != "" {
		if v, ok := s.Labels[NameLabel]; !ok || v == s.Name {
			s.Labels[NameLabel] = s.Name
		} else {
			s.hubOwns(NameLabel)
		}
	}
	if s.Labels[ClusterSetLabel] == "" {
		s.Labels[ClusterSetLabel] = defaultClusterSet
		delete(s.labelPaths, ClusterSetLabel)
	}
	for _, k := range detectable {
		if v, ok := s.Labels[k]; ok && v == AutoDetect {
			s.hubOwns(k)
		}
	}
	for _, k := range fromCluster {
		s.hubOwns(k)
	}
	for k := range s.Labels {
		if strings.HasPrefix(k, addonPrefix) {
			delete(s.Labels, k)
			delete(s.labelPaths, k)
		}
	}
	s.HubLabels = append(s.HubLabels, AddonLabels)
	slices.Sort(s.HubLabels)
}

// hubOwns makes label k one whose value only the hub knows.
func (s *Site) hubOwns(k string) {
	delete(s.Labels, k)
	delete(s.labelPaths, k)
	s.HubLabels = append(s.HubLabels, k)
}
