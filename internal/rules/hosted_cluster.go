package rules

import (
	"maps"
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var hostedCluster = &check.Rule{
	ID:       "hosted-cluster",
	Severity: check.Info,
	Origin:   check.OriginAPI,
	Summary:  "A mirror set is marked for a HyperShift hosted cluster, which denies IDMS/ITMS.",
	Doc:      doc("hosted-cluster"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, k := range []manifest.Kind{manifest.KindIDMS, manifest.KindITMS} {
			for _, o := range c.Objects(k) {
				if key := hypershiftMarker(o); key != "" {
					c.ReportKey(o, manifest.Path{"metadata", key[:strings.IndexByte(key, '/')], key[strings.IndexByte(key, '/')+1:]},
						"%s %q is marked for a HyperShift hosted cluster, where the admission policy 'mirror' denies %s objects: set the mirrors in the HostedCluster's spec.imageContentSources instead", o.Kind, o.Name, o.Kind)
				}
			}
		}
	},
}

// hypershiftMarker returns "labels/<key>" or "annotations/<key>" for the
// first HyperShift label or annotation, or "".
func hypershiftMarker(o *manifest.Object) string {
	md, _ := o.Content["metadata"].(map[string]any)
	for _, field := range []string{"labels", "annotations"} {
		m, _ := md[field].(map[string]any)
		for _, k := range sortedMapKeys(m) {
			if strings.Contains(k, "hypershift.openshift.io") {
				return field + "/" + k
			}
		}
	}
	return ""
}

func sortedMapKeys(m map[string]any) []string {
	keys := slices.Sorted(maps.Keys(m))
	return keys
}
