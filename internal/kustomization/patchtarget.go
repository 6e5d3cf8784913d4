package kustomization

import (
	"bytes"
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// PatchFor returns the index of k's patch entry that patches the object
// kind/name: by its target, else by the kind and name the patch itself
// names (a strategic merge patch, inline or in a file of k's directory,
// read with text: kustomize reads no patch from outside it). -1 when none
// does. It
// places kustomize's "failed to find unique target for patch" on the
// entry it is about, which kustomize's message does not name.
func (k *File) PatchFor(kind, name string, text func(abs string) []byte) int {
	for i, e := range k.Entries {
		if !e.IsPatch() {
			continue
		}
		if e.HasTarget {
			if e.Target.Kind == kind && (e.Target.Name == "" || e.Target.Name == name) {
				return i
			}
			continue
		}
		patch := []byte(e.Inline)
		if e.Value != "" {
			if !filepath.IsLocal(e.Value) {
				continue
			}
			patch = text(filepath.Join(k.Dir, filepath.FromSlash(e.Value)))
		}
		if names(patch, kind, name) {
			return i
		}
	}
	return -1
}

// names reports whether a document of text is kind/name.
func names(text []byte, kind, name string) bool {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for {
		var doc struct {
			Kind     string `yaml:"kind"`
			Metadata struct {
				Name string `yaml:"name"`
			} `yaml:"metadata"`
		}
		if err := dec.Decode(&doc); err != nil {
			return false // the end, or text that is no YAML
		}
		if doc.Kind == kind && doc.Metadata.Name == name {
			return true
		}
	}
}
