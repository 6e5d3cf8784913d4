package manifest

import "path"

// KindInstallConfig is the kind given to an openshift-install
// install-config.yaml, which has apiVersion v1 and no kind. It is kept,
// as an object of an unmodelled kind, when a load keeps every object
// (UnmodelledAll).
const KindInstallConfig = "InstallConfig"

// IsInstallConfigFile reports whether name is an installer input by its
// base name: install-config.yaml, as openshift-install and the
// agent-based installer read it from their directory.
func IsInstallConfigFile(name string) bool {
	base := path.Base(name)
	return base == "install-config.yaml" || base == "install-config.yml"
}

// MayHoldFile is MayHold for a file known by its name: an install-config
// names no kind, so the byte test cannot see it, and it is kept whenever
// the kind is needed.
func (n Needs) MayHoldFile(name string, data []byte, u Unmodelled) bool {
	if IsInstallConfigFile(name) && n.Has(KindInstallConfig, u) {
		return true
	}
	return n.MayHold(data, u)
}

// mayHoldFileKinds is MayHoldFile's verdict from what kindsIn read.
func (n Needs) mayHoldFileKinds(name string, kinds []string, unsure bool, u Unmodelled) bool {
	if IsInstallConfigFile(name) && n.Has(KindInstallConfig, u) {
		return true
	}
	return n.mayHoldKinds(kinds, unsure, u)
}

// inputKinds are the kinds of the mirror inputs that are not mirror
// objects (install-config, the hub's AgentServiceConfig and its mirror
// ConfigMap, ZTP sites and hand-written AgentClusterInstalls with their
// ManagedClusters, the ClusterImageSets they name, HostedCluster and
// NodePool, and the Argo CD
// Applications that sync directories into hosted clusters): kept whole whenever
// unmodelled kinds are kept at all (UnmodelledImages too), since the
// checks of those inputs read them whole.
var inputKinds = map[string]bool{
	KindInstallConfig: true, "AgentConfig": true, "AgentServiceConfig": true, "ConfigMap": true,
	"SiteConfig": true, "ClusterInstance": true, "AgentClusterInstall": true, "ManagedCluster": true, "HostedCluster": true, "NodePool": true,
	"Application": true, "ClusterImageSet": true,
}
