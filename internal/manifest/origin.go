package manifest

import "sigs.k8s.io/kustomize/kyaml/yaml"

// Annotations naming the file an object came from, written by kustomize
// (origin, with buildMetadata: [originAnnotations]) and by KRM function
// runners (path). When present, findings can point at the real source.
const (
	annoOrigin       = "config.kubernetes.io/origin"
	annoInternalPath = "internal.config.kubernetes.io/path"
	annoLegacyPath   = "config.kubernetes.io/path"
)

func originOf(content map[string]any) string {
	md, _ := content["metadata"].(map[string]any)
	annos, _ := md["annotations"].(map[string]any)
	if len(annos) == 0 {
		return ""
	}
	if s, ok := annos[annoOrigin].(string); ok && s != "" {
		// The origin annotation is itself YAML: "path: a/b.yaml\nrepo: ...".
		var o struct {
			Path string `yaml:"path"`
		}
		if yaml.Unmarshal([]byte(s), &o) == nil && o.Path != "" {
			return o.Path
		}
	}
	for _, k := range []string{annoInternalPath, annoLegacyPath} {
		if s, ok := annos[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}
