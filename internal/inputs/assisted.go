package inputs

import (
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

const assisted = "assisted-service"

// Rule ids of the hub mirror configuration checks.
const (
	RuleHubConfigMap      = "hub-mirror-configmap"
	RuleHubPrefixIgnored  = "hub-mirror-prefix-ignored"
	RuleHubPullFromMirror = "hub-mirror-not-for-spokes"
	RuleHubV1Format       = "hub-mirror-v1-format"
)

// HubMirrors is the hub's mirror configuration: the registries.conf of
// the ConfigMap an AgentServiceConfig's spec.mirrorRegistryRef names,
// which assisted-service gives every spoke that names none of its own.
type HubMirrors struct {
	ASC *manifest.Object
	registriesConf
}

func readHub(asc *manifest.Object, cms []*manifest.Object) *HubMirrors {
	name, _ := manifest.NestedString(asc.Content, "spec", "mirrorRegistryRef", "name")
	if name == "" {
		return nil
	}
	h := &HubMirrors{ASC: asc}
	h.Name = name
	h.read(pickConfigMap(cms, name, asc.File, "multicluster-engine", "open-cluster-management", "assisted-installer"))
	return h
}

// pickConfigMap finds the ConfigMap named name for a reference written in
// file from: of those in the namespaces given (the operator's usual
// namespaces), else of all, the nearest (see near.go).
func pickConfigMap(cms []*manifest.Object, name, from string, prefer ...string) *manifest.Object {
	var named, preferred []*manifest.Object
	for _, cm := range cms {
		if cm.Name != name {
			continue
		}
		named = append(named, cm)
		ns, _ := manifest.NestedString(cm.Content, "metadata", "namespace")
		if slices.Contains(prefer, ns) {
			preferred = append(preferred, cm)
		}
	}
	if len(preferred) > 0 {
		return manifest.Nearest(from, preferred)
	}
	return manifest.Nearest(from, named)
}

// Check reports what assisted-service refuses or drops in the hub file.
func (h *HubMirrors) Check() []Finding {
	var fs findings
	refPos := h.ASC.Locate(manifest.Path{"spec", "mirrorRegistryRef", "name"})
	if h.ConfigMap == nil {
		return nil // not in the tree: nothing known about it
	}
	if h.Missing {
		fs.add(h.ConfigMap.LocateKey(manifest.Path{"data"}), check.Error, RuleHubConfigMap, assisted,
			"Mirror registry configmap %s missing key registries.conf (%s refuses the AgentServiceConfig named at %s:%d): add data.registries.conf", h.Name, assisted, refPos.File, refPos.Line)
		return fs
	}
	if h.Err != "" {
		if strings.HasPrefix(h.Err, "failed to find registry key") {
			fs.add(h.confKey(), check.Warning, RuleHubV1Format, assisted,
				"registries.conf has no [[registry]] tables (the v1 format, or no mirrors): %s ignores the file without a word, so spokes get no mirrors; write it in the v2 format ([[registry]] location = source, [[registry.mirror]] location = mirror)", assisted)
		} else {
			fs.add(h.confKey(), check.Error, RuleHubConfigMap, assisted,
				"%s (%s): fix the registries.conf", h.Err, assisted)
		}
		return fs
	}
	h.checkTables(&fs, hubReader)
	return fs
}
