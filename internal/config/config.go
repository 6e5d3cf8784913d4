// Package config reads .mirrorlint.yaml: per-rule severities, excludes,
// suppressions, policy directories, the cluster's version and release
// image, and explicit cluster definitions. Unknown keys are an error.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FileName is the name looked up from the working directory upward.
const FileName = ".mirrorlint.yaml"

// Config is the file's content. Field names are the YAML keys.
type Config struct {
	OpenShiftVersion string            `yaml:"openshiftVersion,omitempty" json:"openshiftVersion,omitempty"`
	ReleaseImage     string            `yaml:"releaseImage,omitempty" json:"releaseImage,omitempty"`
	FailOn           string            `yaml:"failOn,omitempty" json:"failOn,omitempty"`
	Rules            map[string]string `yaml:"rules,omitempty" json:"rules,omitempty"`
	Exclude          []string          `yaml:"exclude,omitempty" json:"exclude,omitempty"`
	Ignore           []Ignore          `yaml:"ignore,omitempty" json:"ignore,omitempty"`
	Policies         []string          `yaml:"policies,omitempty" json:"policies,omitempty"`
	Data             []string          `yaml:"data,omitempty" json:"data,omitempty"`
	AllowNet         bool              `yaml:"allowNet,omitempty" json:"allowNet,omitempty"`
	PolicyTimeout    string            `yaml:"policyTimeout,omitempty" json:"policyTimeout,omitempty"`
	Clusters         []Cluster         `yaml:"clusters,omitempty" json:"clusters,omitempty"`

	// Path is where the file was read from ("" when built in code); paths
	// inside the file are relative to its directory.
	Path string `yaml:"-" json:"-"`
}

// Ignore suppresses a rule's findings by file glob and/or object.
type Ignore struct {
	Rule   string `yaml:"rule" json:"rule"`
	Path   string `yaml:"path,omitempty" json:"path,omitempty"`
	Object string `yaml:"object,omitempty" json:"object,omitempty"` // Kind/name
	Reason string `yaml:"reason" json:"reason"`
}

// Cluster declares one cluster explicitly.
type Cluster struct {
	Name             string   `yaml:"name" json:"name"`
	Paths            []string `yaml:"paths" json:"paths"`
	ReleaseImage     string   `yaml:"releaseImage,omitempty" json:"releaseImage,omitempty"`
	OpenShiftVersion string   `yaml:"openshiftVersion,omitempty" json:"openshiftVersion,omitempty"`
}

// Parse reads a config strictly: an unknown key is an error naming its line.
func Parse(name string, data []byte) (*Config, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c.Path = name
	return &c, c.validate()
}

// Load reads the file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Find looks for FileName in dir and its parents; "" when there is none.
func Find(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(abs, FileName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return ""
		}
		abs = parent
	}
}

// Resolve turns a path written in the file into one usable from the
// working directory.
func (c *Config) Resolve(p string) string {
	if c == nil || c.Path == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(c.Path), p)
}

func (c *Config) validate() error {
	var errs []error
	for i, ig := range c.Ignore {
		if ig.Rule == "" {
			errs = append(errs, fmt.Errorf("%s: ignore[%d]: rule is required", c.Path, i))
		}
		if ig.Path == "" && ig.Object == "" {
			errs = append(errs, fmt.Errorf("%s: ignore[%d]: give a path glob, an object (Kind/name), or both", c.Path, i))
		}
	}
	for i, cl := range c.Clusters {
		if cl.Name == "" || len(cl.Paths) == 0 {
			errs = append(errs, fmt.Errorf("%s: clusters[%d]: name and paths are required", c.Path, i))
		}
	}
	return errors.Join(errs...)
}
