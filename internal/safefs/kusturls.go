package safefs

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// kustomizationNames are the file names kustomize reads as a
// kustomization (or component).
var kustomizationNames = map[string]bool{"kustomization.yaml": true, "kustomization.yml": true, "Kustomization": true}

// IsKustomization reports whether p names a kustomization file.
func IsKustomization(p string) bool { return kustomizationNames[filepath.Base(p)] }

// urlFields are the kustomization fields whose entries kustomize's loader
// fetches over http(s) (or clones) when they are URLs: every one of them
// is refused before kustomize sees the file, since its loader fetches with
// its own HTTP client and no filesystem can intercept that. The entry is
// the field's path: "[]" is each item of a sequence, ".x" a key.
var urlFields = [][]string{
	{"resources", "[]"},
	{"bases", "[]"},
	{"components", "[]"},
	{"crds", "[]"},
	{"configurations", "[]"},
	{"generators", "[]"},
	{"transformers", "[]"},
	{"validators", "[]"},
	{"patchesStrategicMerge", "[]"},
	{"patches", "[]", "path"},
	{"patchesJson6902", "[]", "path"},
	{"replacements", "[]", "path"},
	{"openapi", "path"},
	{"configMapGenerator", "[]", "files", "[]"},
	{"configMapGenerator", "[]", "envs", "[]"},
	{"configMapGenerator", "[]", "env"},
	{"secretGenerator", "[]", "files", "[]"},
	{"secretGenerator", "[]", "envs", "[]"},
	{"secretGenerator", "[]", "env"},
	{"helmGlobals", "chartHome"},
}

// CheckKustomization refuses a kustomization that names a URL in a field
// kustomize would fetch it for, pointing at the entry. A text that does
// not parse is left to kustomize's own error.
func CheckKustomization(name string, data []byte) error {
	if !bytes.Contains(data, []byte("://")) && !bytes.Contains(data, []byte("git@")) && !bytes.Contains(data, []byte(".com/")) && !bytes.Contains(data, []byte(".org/")) {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	for _, f := range urlFields {
		if err := findURL(name, f[0], root, f, nil); err != nil {
			return err
		}
	}
	return nil
}

func findURL(name, field string, n *yaml.Node, path []string, at []string) error {
	if n == nil {
		return nil
	}
	if len(path) == 0 {
		if n.Kind != yaml.ScalarNode {
			return nil
		}
		v := n.Value
		if strings.Contains(v, "\n") {
			return nil // an inline patch, not a path
		}
		if i := strings.Index(v, "="); i >= 0 && (field == "configMapGenerator" || field == "secretGenerator") {
			v = v[i+1:] // files: [key=path]
		}
		if IsURL(v) {
			return &PositionedError{File: name, Line: n.Line, Column: n.Column, Err: ErrURL, Msg: fmt.Sprintf(
				"%s entry %q is a URL; mirrorlint runs offline and never fetches: vendor the file into the repository, or lint the `kustomize build` output with `mirrorlint lint -`",
				strings.Join(at, ""), v)}
		}
		return nil
	}
	switch step := path[0]; {
	case step == "[]":
		if n.Kind != yaml.SequenceNode {
			return findURL(name, field, n, path[1:], at) // a scalar where a list is expected
		}
		for i, c := range n.Content {
			if err := findURL(name, field, c, path[1:], append(at, fmt.Sprintf("[%d]", i))); err != nil {
				return err
			}
		}
	default:
		if n.Kind != yaml.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == step {
				sep := "."
				if len(at) == 0 {
					sep = ""
				}
				if err := findURL(name, field, n.Content[i+1], path[1:], append(at, sep+step)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
