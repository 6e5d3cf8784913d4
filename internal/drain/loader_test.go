package drain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/render"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// loadTree is a deliberately small, test-only manifest reader (the real one
// lives in internal/manifest): every *.yaml/*.yml file under dir, multi-doc,
// "kind: List" unwrapped, only the four kinds MCO reads under the apiVersion
// the API server serves them at; Image only when named "cluster".
func loadTree(dir string) (render.Input, error) {
	var in render.Input
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return in, nil // a side with no manifests at all
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return loadDocs(data, &in)
	})
	return in, err
}

func loadDocs(data []byte, in *render.Input) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := addObject(doc, in); err != nil {
			return err
		}
	}
}

func addObject(doc map[string]any, in *render.Input) error {
	if doc == nil {
		return nil
	}
	kind, _ := doc["kind"].(string)
	api, _ := doc["apiVersion"].(string)
	if kind == "List" {
		items, _ := doc["items"].([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			if err := addObject(m, in); err != nil {
				return err
			}
		}
		return nil
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	switch {
	case kind == "ImageContentSourcePolicy" && api == "operator.openshift.io/v1alpha1":
		o := &operatorv1alpha1.ImageContentSourcePolicy{}
		err = json.Unmarshal(raw, o)
		in.ICSPs = append(in.ICSPs, o)
	case kind == "ImageDigestMirrorSet" && api == "config.openshift.io/v1":
		o := &configv1.ImageDigestMirrorSet{}
		err = json.Unmarshal(raw, o)
		in.IDMSs = append(in.IDMSs, o)
	case kind == "ImageTagMirrorSet" && api == "config.openshift.io/v1":
		o := &configv1.ImageTagMirrorSet{}
		err = json.Unmarshal(raw, o)
		in.ITMSs = append(in.ITMSs, o)
	case kind == "Image" && api == "config.openshift.io/v1":
		o := &configv1.Image{}
		if err = json.Unmarshal(raw, o); err == nil && o.Name == "cluster" {
			in.Image = &o.Spec
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	return nil
}

// readTrim reads a small text file, "" when absent.
func readTrim(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
