package testtree

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// HubFile is what assisted-service reads on a ZTP hub to install its
// spokes, in one file: the ConfigMap configMap of namespace
// multicluster-engine, whose registries.conf is conf (written unindented;
// its mirrors are what every spoke the hub installs gets), then the
// AgentServiceConfig agent naming the ConfigMap in spec.mirrorRegistryRef.
// conf starts on line 8.
func HubFile(configMap, conf string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: multicluster-engine\ndata:\n  registries.conf: |\n", configMap)
	for line := range strings.Lines(conf) {
		if line != "\n" {
			b.WriteString("    ")
		}
		b.WriteString(line)
	}
	fmt.Fprintf(&b, "---\napiVersion: agent-install.openshift.io/v1beta1\nkind: AgentServiceConfig\nmetadata:\n  name: agent\nspec:\n  mirrorRegistryRef:\n    name: %s\n", configMap)
	return b.String()
}

// Hub returns the files of a hub in directory dir ("" for the root), for a
// test to merge into its tree: asc.yaml, the HubFile of the ConfigMap
// mirrors whose registries.conf mirrors each source of mirrors (sorted) to
// its mirror, and kustomization.yaml listing it.
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
