package policy

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/util"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// configKeys are the keys of data.mirrorlint the built-in library reads.
// Anything else under data.mirrorlint is a typo that would silently turn a
// policy off, so it is an error.
var configKeys = map[string]string{
	"allowed_mirror_registries": "mirror-registry-not-allowed",
	"never_contact_sources":     "never-contact-required",
	"no_tag_mirror_sources":     "tag-mirror-forbidden",
}

// loadData reads and deep-merges the data files. Two files setting the same
// leaf to different values is an error naming both, because which one won
// would depend on flag order.
func loadData(files []string) (map[string]any, error) {
	data := map[string]any{}
	origin := map[string]string{} // dotted path → file that set it
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("data file %s: %w", f, err)
		}
		var doc any
		if err := util.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("data file %s: %w", f, err)
		}
		if doc == nil {
			continue
		}
		obj, ok := doc.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("data file %s: the document must be a mapping (its keys become data.<key>)", f)
		}
		if err := merge(data, obj, "", f, origin); err != nil {
			return nil, err
		}
	}
	if err := checkConfig(data, origin); err != nil {
		return nil, err
	}
	return data, nil
}

func merge(dst, src map[string]any, prefix, file string, origin map[string]string) error {
	for k, v := range src {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		old, exists := dst[k]
		om, oldIsMap := old.(map[string]any)
		nm, newIsMap := v.(map[string]any)
		switch {
		case !exists:
			dst[k] = v
			origin[p] = file
		case oldIsMap && newIsMap:
			if err := merge(om, nm, p, file, origin); err != nil {
				return err
			}
		default:
			return fmt.Errorf("data file %s: data.%s is already set by %s", file, p, originOf(origin, p))
		}
	}
	return nil
}

// checkConfig validates data.mirrorlint: only the library's keys, each a
// list of strings.
func checkConfig(data map[string]any, origin map[string]string) error {
	raw, ok := data["mirrorlint"]
	if !ok {
		return nil
	}
	cfg, ok := raw.(map[string]any)
	if !ok {
		return fmt.Errorf("data file %s: data.mirrorlint must be a mapping with the keys %s", originOf(origin, "mirrorlint"), knownKeys())
	}
	// Sorted, so the same files always give the same error.
	keys := slices.Sorted(maps.Keys(cfg))
	for _, k := range keys {
		file := originOf(origin, "mirrorlint."+k)
		if _, ok := configKeys[k]; !ok {
			return fmt.Errorf("data file %s: data.mirrorlint.%s: unknown key (known: %s)", dataPos(file, true, "mirrorlint", k), k, knownKeys())
		}
		list, ok := cfg[k].([]any)
		if !ok {
			return fmt.Errorf("data file %s: data.mirrorlint.%s: want a list of strings", dataPos(file, false, "mirrorlint", k), k)
		}
		for i, s := range list {
			if _, ok := s.(string); !ok {
				return fmt.Errorf("data file %s: data.mirrorlint.%s[%d]: want a string, got %v", dataPos(file, false, "mirrorlint", k, i), k, i, s)
			}
		}
	}
	return nil
}

// dataPos returns file:line:col of the value at path in a data file (of
// its key when key is set), or just file when it cannot be found: the
// merged data no longer knows where anything was written, and a typo in a
// long data file is otherwise hard to find. The file is read a second
// time, only on this error path.
func dataPos(file string, key bool, path ...any) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return file
	}
	var doc yaml.Node
	if yaml.Unmarshal(b, &doc) != nil || len(doc.Content) == 0 {
		return file
	}
	n, k := doc.Content[0], (*yaml.Node)(nil)
	for _, e := range path {
		for n != nil && n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		if n == nil {
			return file
		}
		var next *yaml.Node
		switch e := e.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return file
			}
			// The last duplicate wins, as in the decoded data.
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == e {
					k, next = n.Content[i], n.Content[i+1]
				}
			}
		case int:
			if n.Kind != yaml.SequenceNode || e >= len(n.Content) {
				return file
			}
			k, next = nil, n.Content[e]
		}
		if next == nil {
			return file
		}
		n = next
	}
	if key && k != nil {
		n = k
	}
	return fmt.Sprintf("%s:%d:%d", file, n.Line, n.Column)
}

func knownKeys() string {
	keys := slices.Sorted(maps.Keys(configKeys))
	return strings.Join(keys, ", ")
}

// originOf is the file that set path or the nearest enclosing mapping (a
// file that introduces a whole mapping is recorded at its top).
func originOf(origin map[string]string, path string) string {
	for {
		if f, ok := origin[path]; ok {
			return f
		}
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			return "?"
		}
		path = path[:i]
	}
}
