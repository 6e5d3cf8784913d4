package inputs

import (
	"fmt"
	"path"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Applied splits a tree's input objects (as Load reads them) by whether
// their component gets them, where unlisted(file) says kustomize does not
// apply file: it lies in a kustomization's directory that does not list it
// (cluster.Result.Unlisted). What each component really reads decides:
//
//   - openshift-install reads install-config.yaml, and its agent
//     subcommand agent-config.yaml, from their directory, and adds the
//     manifests/ and openshift/ directories beside install-config.yaml as
//     they are (besideInstallConfig); none of them is a kustomize resource,
//     so a kustomization beside them changes nothing: they are kept;
//   - every other input reaches its component by being applied to a
//     cluster, which a GitOps tree does by building the kustomization of
//     its directory (kustomize, or Argo CD running it; the ZTP plugin
//     runs only the SiteConfigs listed under generators:): a ClusterInstance
//     or SiteConfig, a hand-written AgentClusterInstall, the hub's
//     AgentServiceConfig and ConfigMaps, a
//     HostedCluster, a NodePool and its ConfigMaps, an Argo CD
//     Application, a mirror object committed for a guest cluster. From an
//     unlisted file none of them is applied, so it is dropped, as the
//     tree's clusters leave such a file out.
//
// unapplied holds, for each unlisted file, the first dropped object that
// creates or shapes a cluster (Declares, or a NodePool): the caller
// reports the file at it (Unapplied says what is lost), since otherwise
// the cluster it makes would vanish unsaid. A dropped file holding only
// ConfigMaps, Applications or mirror objects is not among them: a
// ConfigMap or an Application alone is not worth a warning, and the
// tree's clusters warn about a mirror object themselves.
func Applied(objs []*manifest.Object, unlisted func(file string) bool) (kept, unapplied []*manifest.Object) {
	installDirs := map[string]bool{}
	for _, o := range objs {
		if o.Kind == manifest.KindInstallConfig {
			installDirs[path.Dir(o.File)] = true
		}
	}
	verdict := map[string]bool{}
	reported := map[string]bool{}
	for _, o := range objs {
		drop, ok := verdict[o.File]
		if !ok {
			drop = !readByInstaller(o, installDirs) && unlisted(o.File)
			verdict[o.File] = drop
		}
		if !drop {
			kept = append(kept, o)
			continue
		}
		if !reported[o.File] && (Declares(string(o.Kind)) || o.Kind == "NodePool") {
			reported[o.File] = true
			unapplied = append(unapplied, o)
		}
	}
	return kept, unapplied
}

// readByInstaller reports whether openshift-install reads o's file from its
// directory: an install-config, an agent-config, or a manifest of the
// manifests/ or openshift/ directory beside an install-config (installDirs
// holds the directories of the install-configs).
func readByInstaller(o *manifest.Object, installDirs map[string]bool) bool {
	if o.Kind == manifest.KindInstallConfig || manifest.IsInstallConfigFile(o.File) || isAgentConfig(o) {
		return true
	}
	dir := installerDir(path.Dir(o.File))
	return dir != "" && installDirs[dir]
}

// Unapplied says what is lost when o (one of Applied's unapplied) is not
// applied, for the warning on its file.
func Unapplied(o *manifest.Object) string {
	switch o.Kind {
	case "NodePool":
		return fmt.Sprintf("so NodePool %s joins no hosted cluster", o.Name)
	case "AgentServiceConfig":
		return fmt.Sprintf("so AgentServiceConfig %s is no hub of the tree's spokes", o.Name)
	}
	return fmt.Sprintf("so %s %s creates no cluster", o.Kind, o.Name)
}
