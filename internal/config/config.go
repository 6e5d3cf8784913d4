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
	"reflect"
	"regexp"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/suggest"
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
	PolicyMemory     int               `yaml:"policyMemory,omitempty" json:"policyMemory,omitempty"` // MiB
	Strict           bool              `yaml:"strict,omitempty" json:"strict,omitempty"`
	Clusters         []Cluster         `yaml:"clusters,omitempty" json:"clusters,omitempty"`
	// SourceCRs are directories holding the ZTP source CRs that
	// PolicyGenTemplate and PolicyGenerator entries name (relative to
	// this file), searched after the source-crs directory of the
	// directory each generator runs in.
	SourceCRs []string `yaml:"sourceCRs,omitempty" json:"sourceCRs,omitempty"`
	// FeatureSet is the cluster's feature set (Default,
	// TechPreviewNoUpgrade, DevPreviewNoUpgrade, CustomNoUpgrade); empty
	// takes it from FeatureGate/cluster in the tree.
	FeatureSet string `yaml:"featureSet,omitempty" json:"featureSet,omitempty"`
	// DefaultClusterImagePolicy false says the cluster has no default
	// "openshift" ClusterImagePolicy although its release installs one
	// (HyperShift hosted clusters); unset or true assumes it.
	DefaultClusterImagePolicy *bool `yaml:"defaultClusterImagePolicy,omitempty" json:"defaultClusterImagePolicy,omitempty"`

	// Path is where the file was read from ("" when built in code); paths
	// inside the file are relative to its directory.
	Path string `yaml:"-" json:"-"`
	// Refused are the settings removed because the file was found in the
	// tree rather than named by the command line (see Distrust).
	Refused []Refused `yaml:"-" json:"-"`
	// Distrusted is set once Distrust has run: the config was found in the
	// tree, and so is the same file as it was at another revision.
	Distrusted bool `yaml:"-" json:"-"`

	// lines maps dotted key paths ("rules.icsp-deprecated", "ignore[2]")
	// to the line they are written on, for messages that point at them.
	lines map[string]int
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
	// FeatureSet and DefaultClusterImagePolicy override the global keys
	// for this cluster.
	FeatureSet                string `yaml:"featureSet,omitempty" json:"featureSet,omitempty"`
	DefaultClusterImagePolicy *bool  `yaml:"defaultClusterImagePolicy,omitempty" json:"defaultClusterImagePolicy,omitempty"`
}

// Parse reads a config strictly: an unknown key is an error naming its line
// and the keys that are allowed there.
func Parse(name string, data []byte) (*Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %s", name, yamlMessage(err))
	}
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %s", name, yamlMessage(err))
	}
	c.Path = name
	c.lines = map[string]int{}
	if len(doc.Content) == 1 {
		indexLines(doc.Content[0], "", c.lines)
	}
	return &c, c.validate()
}

// Where names a key of the file for a message: "path:line: key" (or
// "path: key" when the line is unknown).
func (c *Config) Where(key string) string {
	if c == nil || c.Path == "" {
		return key
	}
	if l := c.lines[key]; l > 0 {
		return fmt.Sprintf("%s:%d: %s", c.Path, l, key)
	}
	return c.Path + ": " + key
}

// IgnoreLine is the line of ignore entry i, 0 when unknown.
func (c *Config) IgnoreLine(i int) int { return c.lines[fmt.Sprintf("ignore[%d]", i)] }

func indexLines(n *yaml.Node, prefix string, out map[string]int) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			if prefix != "" {
				key = prefix + "." + key
			}
			out[key] = n.Content[i].Line
			indexLines(n.Content[i+1], key, out)
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			key := fmt.Sprintf("%s[%d]", prefix, i)
			out[key] = item.Line
			indexLines(item, key, out)
		}
	}
}

// SourceCRDirs returns the sourceCRs directories as paths to open.
func (c *Config) SourceCRDirs() []string {
	var out []string
	for _, d := range c.SourceCRs {
		if !filepath.IsAbs(d) && c.Path != "" {
			d = filepath.Join(filepath.Dir(c.Path), d)
		}
		out = append(out, d)
	}
	return out
}

// allowedKeys lists the keys of each mapping of the file, by the name of
// its Go type as the YAML library's errors give it, for "unknown key"
// messages. They are read from the yaml tags, so a new key is allowed and
// listed the moment the struct has it.
var allowedKeys = map[string][]string{
	"Config":  yamlKeys(reflect.TypeFor[Config]()),
	"Ignore":  yamlKeys(reflect.TypeFor[Ignore]()),
	"Cluster": yamlKeys(reflect.TypeFor[Cluster]()),
}

// yamlKeys lists the keys a struct is written with, in field order.
func yamlKeys(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

var fieldNotFound = regexp.MustCompile(`line (\d+): field (\S+) not found in type config\.(\w+)`)

// yamlMessage rewords the YAML library's errors for a person: no Go type
// names, the allowed keys, and a did-you-mean.
func yamlMessage(err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return strings.TrimPrefix(err.Error(), "yaml: ")
	}
	var msgs []string
	for _, e := range te.Errors {
		m := fieldNotFound.FindStringSubmatch(e)
		if m == nil {
			msgs = append(msgs, typeNames.ReplaceAllString(e, ""))
			continue
		}
		allowed := allowedKeys[m[3]]
		msg := fmt.Sprintf("line %s: unknown key %q", m[1], m[2])
		if s := suggest.Closest(m[2], allowed, 2); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		msgs = append(msgs, msg+"; allowed here: "+strings.Join(allowed, ", "))
	}
	return strings.Join(msgs, "; ")
}

var typeNames = regexp.MustCompile(` into (\[\])?(map\[string\])?[a-z]*\.?[A-Za-z0-9]+`)

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
			errs = append(errs, fmt.Errorf("%s: rule is required", c.Where(fmt.Sprintf("ignore[%d]", i))))
		}
		if ig.Path == "" && ig.Object == "" {
			errs = append(errs, fmt.Errorf("%s: give a path glob, an object (Kind/name), or both", c.Where(fmt.Sprintf("ignore[%d]", i))))
		}
	}
	named := map[string]int{}
	for i, cl := range c.Clusters {
		first, again := named[cl.Name]
		switch {
		case cl.Name == "" || len(cl.Paths) == 0:
			errs = append(errs, fmt.Errorf("%s: name and paths are required", c.Where(fmt.Sprintf("clusters[%d]", i))))
		case !safefs.ValidName(cl.Name):
			// The name becomes a directory under render -o and lint --render.
			errs = append(errs, fmt.Errorf("%s: %q is not a usable cluster name: use letters, digits, '-', '.', and '/' between parts, with no '..', no leading '/' and no '\\'", c.Where(fmt.Sprintf("clusters[%d].name", i)), cl.Name))
		case again:
			// --cluster could select only the first, and render -o would
			// write both into one directory.
			errs = append(errs, fmt.Errorf("%s: %q is already the name of clusters[%d]: give each cluster a name of its own", c.Where(fmt.Sprintf("clusters[%d].name", i)), cl.Name, first))
		default:
			named[cl.Name] = i
		}
	}
	return errors.Join(errs...)
}
