// Package kustomization reads kustomization files for what discovery,
// builds and tracing need: the references each file writes, with their
// positions, the graph of which kustomization reads which, and the index
// of the files a run read (Resolver). kustomize itself does the builds
// (package build).
package kustomization

import (
	"github.com/mirrorlint/mirrorlint/internal/safefs"

	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// kustFileNames are the names kustomize recognises, in its order of lookup.
var kustFileNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// IsFileName reports whether a base name is one kustomize reads.
func IsFileName(name string) bool {
	for _, n := range kustFileNames {
		if n == name {
			return true
		}
	}
	return false
}

// Find returns the kustomization file in dir, or "".
func Find(dir string) string {
	for _, n := range kustFileNames {
		p := filepath.Join(dir, n)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// Entry is one reference written in a kustomization file, kept with its
// line so a build failure can point at the entry that caused it.
type Entry struct {
	Field  string // "resources", "components", "patches", ...
	Value  string // the path as written; empty for an inline patch
	Line   int
	Column int
	// Target is the patch target (patches, patchesJson6902); zero otherwise.
	// HasTarget is set when the entry has a target at all (it may select
	// by labels only).
	Target    PatchTarget
	HasTarget bool
	// Inline holds an inline patch's text (patch: |, or a
	// patchesStrategicMerge entry that is YAML rather than a path), and
	// InlineAt where it sits in the kustomization file.
	Inline   string
	InlineAt InlineText
	// Generated is the name of the object a configMapGenerator or
	// secretGenerator entry makes (such an entry is listed only when it
	// reads a URL, see generatorSources).
	Generated string
}

// PatchTarget is the kind and name a patch entry selects.
type PatchTarget struct {
	Kind, Name string
}

// IsPatch reports whether the entry modifies objects rather than adds them.
func (e Entry) IsPatch() bool {
	switch e.Field {
	case "patches", "patchesStrategicMerge", "patchesJson6902":
		return true
	}
	return false
}

// IsHelm reports whether the entry inflates a Helm chart: kustomize runs
// the helm program for it (only with --enable-helm), which mirrorlint never
// does.
func (e Entry) IsHelm() bool {
	return e.Field == "helmCharts" || e.Field == "helmChartInflationGenerator"
}

// IsRemote reports whether a resource entry names a remote location, which
// kustomize would fetch with git or HTTP; mirrorlint runs offline.
func (e Entry) IsRemote() bool {
	v := e.Value
	return strings.Contains(v, "://") || strings.HasPrefix(v, "git@") ||
		strings.HasPrefix(v, "github.com/") || strings.HasPrefix(v, "gitlab.com/") ||
		strings.HasPrefix(v, "bitbucket.org/")
}

// File is a parsed kustomization: only the references, which is all
// discovery needs; kustomize itself does the build.
type File struct {
	Path    string // absolute
	Dir     string // absolute
	Entries []Entry
	Err     error // the file does not parse; the build will say more
	// Fields holds the top-level keys written, whatever their values;
	// BuildMetadata the buildMetadata options.
	Fields        map[string]bool
	BuildMetadata []string
	// Component is set for a kustomize Component (kind: Component): a
	// piece kustomizations include through components:, which builds on
	// what the including kustomization holds.
	Component bool
	// Sources are the files its configMapGenerator and secretGenerator
	// entries read (see sources.go).
	Sources []Source
	// Namespace is the namespace the kustomization sets on every object
	// it builds, generated ones included ("" when it sets none); NoHash is
	// set when its generatorOptions disable the name suffix hash of every
	// generated object.
	Namespace string
	NoHash    bool
	// Options marks patch entries (by index in Entries) that carry
	// options (allowNameChange, allowKindChange).
	Options map[int]bool

	localOnce sync.Once
	resolved  []Resolved

	pluginsOnce sync.Once
	plugins     []Plugin
}

// inlineConfig reports whether an entry of a plugin field is the
// plugin's configuration written inline rather than a path to it:
// kustomize takes an entry that reads as objects for inline, and a
// path is one line and no mapping.
func inlineConfig(field, value string) bool {
	switch field {
	case "generators", "transformers", "validators":
		return strings.Contains(value, "\n") || strings.HasPrefix(strings.TrimSpace(value), "{")
	}
	return false
}

// listFields hold lists of paths (files or kustomization directories).
var listFields = []string{"resources", "bases", "components", "crds", "generators", "transformers", "validators", "configurations"}

// Parse reads the kustomization file at path; a file that does not parse
// gives a File with Err set.
func Parse(path string) *File {
	kf := &File{Path: path, Dir: filepath.Dir(path)}
	data, err := safefs.ReadRegular(path)
	if err != nil {
		kf.Err = err
		return kf
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		kf.Err = err
		return kf
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return kf
	}
	root := doc.Content[0]
	kf.Fields = map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		field, val := root.Content[i].Value, root.Content[i+1]
		kf.Fields[field] = true
		if field == "kind" && val.Value == "Component" {
			kf.Component = true
		}
		if field == "buildMetadata" {
			for _, n := range Seq(val) {
				kf.BuildMetadata = append(kf.BuildMetadata, n.Value)
			}
		}
		switch {
		case slices.Contains(listFields, field) || field == "patchesStrategicMerge":
			for _, n := range Seq(val) {
				if n.Kind != yaml.ScalarNode {
					continue
				}
				e := Entry{Field: field, Value: n.Value, Line: n.Line, Column: n.Column}
				if field == "patchesStrategicMerge" && strings.ContainsAny(n.Value, "\n:") || inlineConfig(field, n.Value) {
					e.Value, e.Inline, e.InlineAt = "", n.Value, NewInlineText(n, data)
				}
				kf.Entries = append(kf.Entries, e)
			}
		case field == "helmCharts" || field == "helmChartInflationGenerator":
			for _, n := range Seq(val) {
				e := Entry{Field: field, Line: n.Line, Column: n.Column}
				if n.Kind == yaml.MappingNode {
					e.Value = Scalar(n, "name")
					if e.Value == "" {
						e.Value = Scalar(n, "chartName")
					}
				}
				kf.Entries = append(kf.Entries, e)
			}
		case field == "configMapGenerator" || field == "secretGenerator":
			srcs, remote := generatorSources(field, val)
			kf.Sources = append(kf.Sources, srcs...)
			kf.Entries = append(kf.Entries, remote...)
		case field == "namespace" && val.Kind == yaml.ScalarNode:
			kf.Namespace = val.Value
		case field == "generatorOptions":
			kf.NoHash = Scalar(val, "disableNameSuffixHash") == "true"
		case field == "patches" || field == "patchesJson6902":
			for _, n := range Seq(val) {
				if n.Kind != yaml.MappingNode {
					continue
				}
				e := Entry{Field: field, Line: n.Line, Column: n.Column}
				e.Value = Scalar(n, "path")
				if v := MapValue(n, "patch"); v != nil && v.Kind == yaml.ScalarNode {
					e.Inline, e.InlineAt = v.Value, NewInlineText(v, data)
				}
				if t := MapValue(n, "target"); t != nil {
					e.Target = PatchTarget{Kind: Scalar(t, "kind"), Name: Scalar(t, "name")}
					e.HasTarget = true
				}
				if MapValue(n, "options") != nil {
					if kf.Options == nil {
						kf.Options = map[int]bool{}
					}
					kf.Options[len(kf.Entries)] = true
				}
				kf.Entries = append(kf.Entries, e)
			}
		}
	}
	return kf
}

// Seq is the items of a sequence node, nil for anything else.
func Seq(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// MapValue is the value of key in a mapping node, nil when absent.
func MapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// Scalar is the scalar value of key in a mapping node, "" otherwise.
func Scalar(m *yaml.Node, key string) string {
	if v := MapValue(m, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// DerefNode follows aliases, bounded in case of a malformed graph.
func DerefNode(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}
