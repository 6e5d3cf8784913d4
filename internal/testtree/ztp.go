package testtree

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// HubFile is what assisted-service reads on a ZTP hub, in one file: the
// ConfigMap configMap in its namespace multicluster-engine, whose
// registries.conf (conf, written unindented, from line 8) holds the mirrors
// it gives the spokes it installs, then the AgentServiceConfig agent that
// names the ConfigMap in spec.mirrorRegistryRef.
func HubFile(configMap, conf string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: multicluster-engine\ndata:\n  registries.conf: |\n", configMap)
	indent(&b, conf)
	fmt.Fprintf(&b, "---\napiVersion: agent-install.openshift.io/v1beta1\nkind: AgentServiceConfig\nmetadata:\n  name: agent\nspec:\n  mirrorRegistryRef:\n    name: %s\n", configMap)
	return b.String()
}

// Hub returns the files of a ZTP hub in directory dir ("" for the root),
// for a test to merge into its own: asc.yaml, the HubFile of the ConfigMap
// mirrors, mirroring each source of mirrors (sorted) to its one mirror, and
// kustomization.yaml listing it.
func Hub(dir string, mirrors map[string]string) map[string]string {
	var conf strings.Builder
	for _, source := range slices.Sorted(maps.Keys(mirrors)) {
		fmt.Fprintf(&conf, "[[registry]]\nlocation = %q\n[[registry.mirror]]\nlocation = %q\n", source, mirrors[source])
	}
	return map[string]string{
		path.Join(dir, "kustomization.yaml"): "resources: [asc.yaml]\n",
		path.Join(dir, "asc.yaml"):           HubFile("mirrors", conf.String()),
	}
}

// ClusterInstance is a ZTP site as the SiteConfig operator reads it: the
// ClusterInstance name (of namespace and clusterName name too) installing
// the ClusterImageSet imageSet, with overrides (JSON, written unindented)
// as its installConfigOverrides, the key on line 9, or none for "".
func ClusterInstance(name, imageSet, overrides string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: siteconfig.open-cluster-management.io/v1alpha1\nkind: ClusterInstance\nmetadata:\n  name: %[1]s\n  namespace: %[1]s\nspec:\n  clusterName: %[1]s\n  clusterImageSetNameRef: %[2]s\n", name, imageSet)
	if overrides != "" {
		b.WriteString("  installConfigOverrides: |\n")
		indent(&b, strings.TrimSuffix(overrides, "\n")+"\n")
	}
	return b.String()
}

// indent writes text to b with each line but a blank one indented by four
// spaces, as a YAML block scalar of a key at column 3.
func indent(b *strings.Builder, text string) {
	for line := range strings.Lines(text) {
		if line != "\n" {
			b.WriteString("    ")
		}
		b.WriteString(line)
	}
}
