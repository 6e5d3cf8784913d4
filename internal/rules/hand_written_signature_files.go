package rules

import (
	"encoding/base64"
	"net/url"
	"path"
	"strings"

	yaml "go.yaml.in/yaml/v2"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
)

var handWrittenSignatureFiles = &check.Rule{
	ID:       "hand-written-signature-files",
	Severity: check.Error,
	Origin:   check.OriginSurprise,
	Summary:  "A MachineConfig writes policy.json, registries.d or /etc/crio/policies, which MCO renders from the signature policies.",
	Doc:      doc("hand-written-signature-files"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		var mcoScopes map[string]bool
		if c.Rendered != nil && c.Rendered.SigstoreRegistriesYAML != nil {
			mcoScopes = dockerNamespaces(c.Rendered.SigstoreRegistriesYAML)
		}
		for _, o := range c.Applied(manifest.KindMachineConfig) {
			files, _ := nestedList(o.Content, "spec", "config", "storage", "files")
			generated := generatedRegistriesName(o)
			if o.Name == generated {
				continue // a copy of MCO's own output
			}
			for i, f := range files {
				m, _ := f.(map[string]any)
				p, _ := m["path"].(string)
				at := manifest.Path{"spec", "config", "storage", "files", i, "path"}
				switch {
				case p == nodefiles.PolicyJSONPath || p == nodefiles.SigstoreRegistriesPath || strings.HasPrefix(p, nodefiles.CRIOPoliciesDir+"/"):
					effect := "it sorts before " + generated + ", so MCO's file overwrites it whenever MCO writes one (on 4.21 always, for policy.json and sigstore-registries.yaml)"
					if o.Name > generated {
						effect = "it sorts after " + generated + ", so it replaces MCO's file: blocked/allowed registries and signature verification from the ClusterImagePolicy/ImagePolicy objects stop applying"
					}
					c.Report(o, at, "MachineConfig %q writes %s, which MCO renders itself: %s; use ClusterImagePolicy/ImagePolicy and Image registrySources instead", o.Name, p, effect)
				case path.Dir(p) == path.Dir(nodefiles.SigstoreRegistriesPath) && mcoScopes != nil:
					src, _ := manifest.NestedString(m, "contents", "source")
					for ns := range dockerNamespaces(dataURL(src)) {
						if mcoScopes[ns] {
							c.Report(o, at, "MachineConfig %q writes %s, which defines the registries.d namespace %q that MCO's sigstore-registries.yaml defines too: containers/image refuses the configuration (\"docker\" namespace defined both in …) and every pull fails", o.Name, p, ns)
							break
						}
					}
				}
			}
		}
	},
}

// generatedRegistriesName is the MachineConfig MCO renders the node's
// registries and signature files into for o's pool (its role label,
// "worker" when unset): MachineConfigs merge by name, so a hand-written
// file's fate depends on which side of this name it sorts.
func generatedRegistriesName(o *manifest.Object) string {
	role := "worker"
	if labels, ok := o.Content["metadata"].(map[string]any)["labels"].(map[string]any); ok {
		if r, ok := labels["machineconfiguration.openshift.io/role"].(string); ok && r != "" {
			role = r
		}
	}
	return "99-" + role + "-generated-registries"
}

// dataURL decodes an Ignition "data:" URL; nil for any other source.
func dataURL(src string) []byte {
	rest, ok := strings.CutPrefix(src, "data:")
	if !ok {
		return nil
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok {
		return nil
	}
	if strings.HasSuffix(meta, ";base64") {
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return nil
		}
		return b
	}
	s, err := url.PathUnescape(data)
	if err != nil {
		return nil
	}
	return []byte(s)
}

// dockerNamespaces lists the scopes a registries.d file configures under
// "docker".
func dockerNamespaces(data []byte) map[string]bool {
	var doc struct {
		Docker map[string]any `yaml:"docker"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	out := make(map[string]bool, len(doc.Docker))
	for k := range doc.Docker {
		out[k] = true
	}
	return out
}
