package policy

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/util"
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
	for k, v := range cfg {
		file := originOf(origin, "mirrorlint."+k)
		if _, ok := configKeys[k]; !ok {
			return fmt.Errorf("data file %s: data.mirrorlint.%s: unknown key (known: %s)", file, k, knownKeys())
		}
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("data file %s: data.mirrorlint.%s: want a list of strings", file, k)
		}
		for i, s := range list {
			if _, ok := s.(string); !ok {
				return fmt.Errorf("data file %s: data.mirrorlint.%s[%d]: want a string, got %v", file, k, i, s)
			}
		}
	}
	return nil
}

func knownKeys() string {
	keys := make([]string, 0, len(configKeys))
	for k := range configKeys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
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
