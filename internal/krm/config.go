package krm

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/config"
)

// The functionConfig kind this function documents; a ConfigMap (what
// `kustomize fn run -- key=value` and `kpt fn eval -- key=value` build) is
// accepted as well.
const (
	ConfigAPIVersion = "mirrorlint.io/v1alpha1"
	ConfigKind       = "MirrorLint"
)

// FunctionConfig is what the function was asked to do.
type FunctionConfig struct {
	// Config holds the same settings as .mirrorlint.yaml.
	Config *config.Config
	// EmitRendered adds the rendered registries.conf as a ConfigMap item.
	EmitRendered bool
}

// configMapKeys are the ConfigMap data keys understood, each a string.
var configMapKeys = map[string]func(fc *FunctionConfig, v string) error{
	"releaseImage":     func(fc *FunctionConfig, v string) error { fc.Config.ReleaseImage = v; return nil },
	"openshiftVersion": func(fc *FunctionConfig, v string) error { fc.Config.OpenShiftVersion = v; return nil },
	"failOn":           func(fc *FunctionConfig, v string) error { fc.Config.FailOn = v; return nil },
	"emitRendered": func(fc *FunctionConfig, v string) error {
		b, err := strconv.ParseBool(v)
		fc.EmitRendered = b
		return err
	},
}

// ParseFunctionConfig reads the functionConfig node (nil: defaults).
// Unknown kinds and keys are errors: a misspelt option silently ignored
// would make the function pass what it should fail.
func ParseFunctionConfig(n *yaml.RNode) (*FunctionConfig, error) {
	fc := &FunctionConfig{Config: &config.Config{}}
	if n == nil || n.IsNilOrEmpty() {
		return fc, nil
	}
	meta, err := n.GetMeta()
	if err != nil {
		return nil, fmt.Errorf("functionConfig: %w", err)
	}
	switch {
	case meta.Kind == ConfigKind:
		if meta.APIVersion != ConfigAPIVersion {
			return nil, fmt.Errorf("functionConfig: kind %s wants apiVersion %s, not %q", ConfigKind, ConfigAPIVersion, meta.APIVersion)
		}
		return fc, parseSpec(fc, n)
	case meta.Kind == "ConfigMap" && (meta.APIVersion == "v1" || meta.APIVersion == ""):
		data := n.GetDataMap()
		keys := slices.Sorted(maps.Keys(data))
		for _, k := range keys {
			set, ok := configMapKeys[k]
			if !ok {
				return nil, fmt.Errorf("functionConfig ConfigMap: unknown key %q (known: %s; use kind %s for the other settings)", k, knownKeys(), ConfigKind)
			}
			if err := set(fc, data[k]); err != nil {
				return nil, fmt.Errorf("functionConfig ConfigMap: %s: %w", k, err)
			}
		}
		return fc, nil
	}
	return nil, fmt.Errorf("functionConfig: want %s %s or a ConfigMap, got %s %s", ConfigAPIVersion, ConfigKind, meta.APIVersion, meta.Kind)
}

func knownKeys() string {
	var ks []string
	for k := range configMapKeys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// parseSpec reads spec through config.Parse, so the spec accepts exactly
// what .mirrorlint.yaml accepts (and rejects unknown keys the same way),
// plus emitRendered, which only makes sense here.
func parseSpec(fc *FunctionConfig, n *yaml.RNode) error {
	spec := n.Field("spec")
	if spec == nil || spec.Value.IsNilOrEmpty() {
		return nil
	}
	spec = &yaml.MapNode{Key: spec.Key, Value: spec.Value.Copy()}
	if f := spec.Value.Field("emitRendered"); f != nil {
		b, err := strconv.ParseBool(f.Value.YNode().Value)
		if err != nil {
			return fmt.Errorf("functionConfig: spec.emitRendered: %w", err)
		}
		fc.EmitRendered = b
		if _, err := spec.Value.Pipe(yaml.Clear("emitRendered")); err != nil {
			return err
		}
	}
	text, err := spec.Value.String()
	if err != nil {
		return err
	}
	cfg, err := config.Parse("functionConfig spec", []byte(text))
	if err != nil {
		return err
	}
	cfg.Path = "" // paths in the spec are relative to the working directory
	fc.Config = cfg
	return nil
}
