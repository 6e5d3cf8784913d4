// Package schema validates mirror objects against the CustomResourceDefinitions
// the API server serves them with, and words its errors the way the API
// server does, so a finding reads like the `oc apply` failure it predicts.
//
// The CRDs are embedded copies of the YAML files shipped in the
// github.com/openshift/api module this repository builds with, produced by
// `go generate` (see gen/); they are never edited by hand.
//
// Why not k8s.io/apiextensions-apiserver: it resolves and builds with this
// toolchain, but its validation packages pull in about 260 more packages
// (cel-go, OpenTelemetry, the generic API server, an etcd client) and add
// some 20 MB to the binary, to evaluate a schema subset that fits in this
// file. These CRDs use only: type, properties, items, required, enum,
// pattern, minLength, maxLength, minItems, maxItems, minimum, format (byte
// and date-time on strings; on an array the API server ignores it),
// x-kubernetes-list-type (atomic, set and map with its keys) and
// x-kubernetes-validations rules. Structural pruning decides unknown
// fields. The CEL rules (see cel.go) are implemented by hand and matched by
// their exact text; a test fails if an openshift/api bump brings a keyword
// or a rule this file does not know.
package schema

import (
	"embed"
	"encoding/base64"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

//go:generate go run ./gen

//go:embed crds/*.yaml
var crdFiles embed.FS

// Schema is the subset of a structural OpenAPI v3 schema these CRDs use.
type Schema struct {
	Type       string             `yaml:"type"`
	Format     string             `yaml:"format"`
	Properties map[string]*Schema `yaml:"properties"`
	// AdditionalProperties is the schema of every key of a map-like
	// object (matchLabels): its keys are then never unknown fields.
	AdditionalProperties *Schema      `yaml:"additionalProperties"`
	Items                *Schema      `yaml:"items"`
	Required             []string     `yaml:"required"`
	Enum                 []any        `yaml:"enum"`
	Pattern              string       `yaml:"pattern"`
	MaxLength            *int64       `yaml:"maxLength"`
	MinLength            *int64       `yaml:"minLength"`
	MinItems             *int64       `yaml:"minItems"`
	MaxItems             *int64       `yaml:"maxItems"`
	Minimum              *float64     `yaml:"minimum"`
	MapKeys              []string     `yaml:"x-kubernetes-list-map-keys"`
	Nullable             bool         `yaml:"nullable"`
	ListType             string       `yaml:"x-kubernetes-list-type"`
	Preserve             bool         `yaml:"x-kubernetes-preserve-unknown-fields"`
	Validations          []Validation `yaml:"x-kubernetes-validations"`

	pattern *regexp.Regexp
}

// Validation is one x-kubernetes-validations (CEL) rule.
type Validation struct {
	Rule    string `yaml:"rule"`
	Message string `yaml:"message"`
}

// ErrorType classifies a validation error the way field.ErrorType does.
type ErrorType int

const (
	// Unknown is a field the schema does not declare: a strict decoding
	// error under strict field validation, otherwise silently pruned.
	Unknown ErrorType = iota
	Required
	NotSupported // enum
	Pattern
	Duplicate // x-kubernetes-list-type: set
	TooFew    // minItems
	TooMany   // maxItems
	TooLong   // maxLength
	TypeMismatch
	Rule // x-kubernetes-validations
)

// Error is one problem, at the path of the offending value (for Unknown,
// the path of the unexpected key).
type Error struct {
	Type   ErrorType
	Path   manifest.Path
	Value  any
	Detail string
	// Supported lists the enum values for NotSupported.
	Supported []string
}

// Error renders the API server's wording.
func (e Error) Error() string {
	p := e.Path.String()
	switch e.Type {
	case Unknown:
		return fmt.Sprintf("strict decoding error: unknown field %q", p)
	case Required:
		if e.Detail != "" {
			return fmt.Sprintf("%s: Required value: %s", p, e.Detail)
		}
		return p + ": Required value"
	case NotSupported:
		q := make([]string, len(e.Supported))
		for i, s := range e.Supported {
			q[i] = strconv.Quote(s)
		}
		return fmt.Sprintf("%s: Unsupported value: %s: supported values: %s", p, quote(e.Value), strings.Join(q, ", "))
	case Duplicate:
		return fmt.Sprintf("%s: Duplicate value: %s", p, quote(e.Value))
	}
	return fmt.Sprintf("%s: Invalid value: %s: %s", p, quote(e.Value), e.Detail)
}

func quote(v any) string {
	switch v := v.(type) {
	case rawValue:
		return string(v)
	case string:
		return strconv.Quote(v)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// CRD is the schema of one kind.
type CRD struct {
	Group, Version, Kind string
	Root                 *Schema
}

// crdKey names one embedded schema: a kind at a version ("" for the kind's
// only or newest one), in the Default feature set or TechPreviewNoUpgrade.
type crdKey struct {
	kind, version string
	preview       bool
}

var (
	loadOnce sync.Once
	crds     map[crdKey]*CRD
	loadErr  error
)

func load() {
	crds = map[crdKey]*CRD{}
	entries, err := crdFiles.ReadDir("crds")
	if err != nil {
		loadErr = err
		return
	}
	for _, e := range entries {
		data, err := crdFiles.ReadFile("crds/" + e.Name())
		if err != nil {
			loadErr = err
			return
		}
		c, err := parseCRD(data)
		if err != nil {
			loadErr = fmt.Errorf("crds/%s: %w", e.Name(), err)
			return
		}
		key := crdKey{kind: c.Kind, preview: strings.Contains(e.Name(), "techpreview")}
		if strings.Contains(e.Name(), "-"+c.Version) {
			key.version = c.Version
		}
		crds[key] = c
	}
}

type crdDoc struct {
	Spec struct {
		Group string `yaml:"group"`
		Names struct {
			Kind string `yaml:"kind"`
		} `yaml:"names"`
		Versions []struct {
			Name   string `yaml:"name"`
			Served bool   `yaml:"served"`
			Schema struct {
				OpenAPIV3Schema *Schema `yaml:"openAPIV3Schema"`
			} `yaml:"schema"`
		} `yaml:"versions"`
	} `yaml:"spec"`
}

func parseCRD(data []byte) (*CRD, error) {
	var d crdDoc
	if err := yaml.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	for _, v := range d.Spec.Versions {
		if !v.Served || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		root := v.Schema.OpenAPIV3Schema
		if err := root.compile(); err != nil {
			return nil, err
		}
		return &CRD{Group: d.Spec.Group, Version: v.Name, Kind: d.Spec.Names.Kind, Root: root}, nil
	}
	return nil, fmt.Errorf("no served version with a schema")
}

func (s *Schema) compile() error {
	if s == nil {
		return nil
	}
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return fmt.Errorf("pattern %q: %w", s.Pattern, err)
		}
		s.pattern = re
	}
	for _, v := range s.Validations {
		if _, ok := celRules[v.Rule]; !ok {
			return fmt.Errorf("x-kubernetes-validations rule %q has no implementation in package schema", v.Rule)
		}
	}
	if s.Format != "" && s.Type == "string" && s.Format != "byte" && s.Format != "date-time" {
		return fmt.Errorf("string format %q has no implementation in package schema", s.Format)
	}
	for _, p := range s.Properties {
		if err := p.compile(); err != nil {
			return err
		}
	}
	if err := s.AdditionalProperties.compile(); err != nil {
		return err
	}
	return s.Items.compile()
}

// Lookup returns the served schema of a kind (its newest version, Default
// feature set), or nil.
func Lookup(kind string) *CRD {
	loadOnce.Do(load)
	return crds[crdKey{kind: kind}]
}

// LookupVersion returns the schema of kind at apiVersion ("group/version"),
// from the TechPreviewNoUpgrade CRD when preview is set and the kind has
// one, else from the Default one; nil when none is embedded.
func LookupVersion(kind, apiVersion string, preview bool) *CRD {
	loadOnce.Do(load)
	_, version, _ := strings.Cut(apiVersion, "/")
	for _, p := range []bool{preview, false} {
		for _, k := range []crdKey{{kind, version, p}, {kind, "", p}} {
			if c := crds[k]; c != nil && c.Group+"/"+c.Version == apiVersion {
				return c
			}
		}
	}
	return nil
}

// LoadError reports a broken embedded CRD (a test asserts it is nil).
func LoadError() error {
	loadOnce.Do(load)
	return loadErr
}

// InPreview reports whether path (field names only) is declared by the
// kind's TechPreviewNoUpgrade schema: a field that is unknown on a default
// cluster but exists behind a feature gate.
func InPreview(kind string, path manifest.Path) bool {
	loadOnce.Do(load)
	c := crds[crdKey{kind: kind, preview: true}]
	if c == nil {
		return false
	}
	s := c.Root
	for _, e := range path {
		if s == nil {
			return false
		}
		switch e := e.(type) {
		case string:
			s = s.Properties[e]
		case int:
			s = s.Items
		}
	}
	return s != nil
}

func has(m map[string]any, k string) bool {
	v, ok := m[k]
	return ok && v != nil
}

// objectMetaFields are the JSON names of metav1.ObjectMeta: the API server
// decodes metadata into that type, so anything else is an unknown field.
var objectMetaFields = map[string]bool{
	"name": true, "generateName": true, "namespace": true, "selfLink": true, "uid": true,
	"resourceVersion": true, "generation": true, "creationTimestamp": true,
	"deletionTimestamp": true, "deletionGracePeriodSeconds": true, "labels": true,
	"annotations": true, "ownerReferences": true, "finalizers": true, "managedFields": true,
}

// Validate checks one object (as plain data) against its kind's schema and
// returns every problem, unknown fields first, each group in document order
// of paths. It returns nil for kinds without an embedded CRD.
func Validate(kind string, obj map[string]any) []Error {
	return ValidateCRD(Lookup(kind), obj)
}

// ValidateCRD is Validate against a given schema (see LookupVersion); nil
// validates nothing.
func ValidateCRD(c *CRD, obj map[string]any) []Error {
	if c == nil {
		return nil
	}
	v := &validator{}
	v.object(c.Root, obj, nil, true)
	if md, ok := obj["metadata"].(map[string]any); ok {
		v.metadata(md)
	} else if obj["metadata"] == nil {
		v.errs = append(v.errs, Error{Type: Required, Path: manifest.Path{"metadata", "name"}, Detail: "name or generateName is required"})
	}
	sort.SliceStable(v.errs, func(i, j int) bool { return (v.errs[i].Type == Unknown) && (v.errs[j].Type != Unknown) })
	return v.errs
}

type validator struct {
	errs []Error
}

func (v *validator) add(t ErrorType, p manifest.Path, val any, detail string) {
	v.errs = append(v.errs, Error{Type: t, Path: p, Value: val, Detail: detail})
}

func (v *validator) metadata(md map[string]any) {
	for _, k := range slices.Sorted(maps.Keys(md)) {
		if !objectMetaFields[k] {
			v.add(Unknown, manifest.Path{"metadata", k}, md[k], "")
		}
	}
	name, _ := md["name"].(string)
	gen, _ := md["generateName"].(string)
	if name == "" && gen == "" {
		v.errs = append(v.errs, Error{Type: Required, Path: manifest.Path{"metadata", "name"}, Detail: "name or generateName is required"})
	}
}

// value validates x against s at path p. A nil x never reaches here: nulls
// for non-nullable fields are pruned by the API server before validation,
// so they behave exactly like absent keys.
func (v *validator) value(s *Schema, x any, p manifest.Path) {
	switch s.Type {
	case "object":
		m, ok := x.(map[string]any)
		if !ok {
			v.typeMismatch(s, x, p)
			return
		}
		v.object(s, m, p, false)
		return // object() runs the object's rules after its fields
	case "array":
		l, ok := x.([]any)
		if !ok {
			v.typeMismatch(s, x, p)
			return
		}
		v.array(s, l, p)
	case "string":
		str, ok := x.(string)
		if !ok {
			v.typeMismatch(s, x, p)
			return
		}
		if !v.str(s, str, p) {
			return // CEL does not run on a value that fails its format
		}
	case "boolean":
		if _, ok := x.(bool); !ok {
			v.typeMismatch(s, x, p)
			return
		}
	case "integer":
		switch n := x.(type) {
		case int:
			v.minimum(s, float64(n), p)
		case float64:
			if n != float64(int64(n)) {
				v.typeMismatch(s, x, p)
				return
			}
			v.minimum(s, n, p)
		default:
			v.typeMismatch(s, x, p)
			return
		}
	}
	v.rules(s, x, p)
}

// rules runs the schema's CEL rules on x; a failing rule is reported with
// the CRD's message, on the value, as the API server does (the "value" it
// prints is the schema type).
func (v *validator) rules(s *Schema, x any, p manifest.Path) {
	for _, rule := range s.Validations {
		if !celRules[rule.Rule](x) {
			v.add(Rule, p, s.Type, rule.Message)
		}
	}
}

func (v *validator) minimum(s *Schema, n float64, p manifest.Path) {
	if s.Minimum != nil && n < *s.Minimum {
		v.add(TooFew, p, n, fmt.Sprintf("%s in body should be greater than or equal to %v", p, *s.Minimum))
	}
}

func (v *validator) typeMismatch(s *Schema, x any, p manifest.Path) {
	got := jsonType(x)
	v.errs = append(v.errs, Error{Type: TypeMismatch, Path: p, Value: got,
		Detail: fmt.Sprintf("%s in body must be of type %s: %q", p, s.Type, got)})
}

func jsonType(x any) string {
	switch x.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int:
		return "integer"
	case float64:
		return "number"
	}
	return "null"
}

// object checks required keys, recurses into declared properties and
// reports undeclared ones. At the root, apiVersion/kind/metadata are handled
// by the caller's metadata pass and by the loader.
func (v *validator) object(s *Schema, m map[string]any, p manifest.Path, root bool) {
	for _, r := range s.Required {
		if !has(m, r) {
			v.add(Required, p.Child(r), nil, "")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		x := m[k]
		prop := s.Properties[k]
		if prop == nil {
			prop = s.AdditionalProperties
		}
		if prop == nil {
			if !s.Preserve {
				v.add(Unknown, p.Child(k), x, "")
			}
			continue
		}
		if x == nil && !prop.Nullable {
			continue
		}
		if root && k == "metadata" {
			continue
		}
		v.value(prop, x, p.Child(k))
	}
	v.rules(s, m, p)
}

func (v *validator) array(s *Schema, l []any, p manifest.Path) {
	if s.MinItems != nil && int64(len(l)) < *s.MinItems {
		v.add(TooFew, p, len(l), fmt.Sprintf("%s in body should have at least %d items", p, *s.MinItems))
	}
	if s.MaxItems != nil && int64(len(l)) > *s.MaxItems {
		v.add(TooMany, p, len(l), fmt.Sprintf("%s in body should have at most %d items", p, *s.MaxItems))
	}
	if s.Items != nil {
		for i, x := range l {
			if x == nil && !s.Items.Nullable {
				continue
			}
			v.value(s.Items, x, p.Child(i))
		}
	}
	if s.ListType == "map" && len(s.MapKeys) > 0 {
		v.mapList(s.MapKeys, l, p)
	}
	if s.ListType == "set" {
		// The API server compares set items by value; only scalar items are
		// used as sets in these CRDs, so a map keyed by the value suffices.
		seen := make(map[any]bool, len(l))
		for i, x := range l {
			if x == nil || !reflect.TypeOf(x).Comparable() {
				continue
			}
			if seen[x] {
				v.add(Duplicate, p.Child(i), x, "")
				continue
			}
			seen[x] = true
		}
	}
}

// mapList reports items of an x-kubernetes-list-type: map list that repeat
// another item's keys, worded like the API server.
func (v *validator) mapList(keys []string, l []any, p manifest.Path) {
	seen := map[string]bool{}
	for i, x := range l {
		m, ok := x.(map[string]any)
		if !ok {
			continue
		}
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%q:%s", k, quote(m[k])))
		}
		id := strings.Join(parts, ", ")
		if seen[id] {
			v.errs = append(v.errs, Error{Type: Duplicate, Path: p.Child(i), Value: rawValue("map[string]interface {}{" + id + "}")})
			continue
		}
		seen[id] = true
	}
}

// rawValue is printed as is in an error.
type rawValue string

// str checks a string value and reports whether it has its format (a
// value that does not is not given to the CEL rules).
func (v *validator) str(s *Schema, str string, p manifest.Path) bool {
	switch s.Format {
	case "byte":
		if _, err := base64.StdEncoding.DecodeString(str); err != nil {
			v.add(Pattern, p, str, fmt.Sprintf("%s in body must be of type byte: %q", p, str))
			return false
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339Nano, str); err != nil {
			v.add(Pattern, p, str, fmt.Sprintf("%s in body must be of type date-time: %q", p, str))
			return false
		}
	}
	if s.MaxLength != nil && int64(len(str)) > *s.MaxLength {
		v.add(TooLong, p, str, fmt.Sprintf("may not be more than %d bytes", *s.MaxLength))
	}
	if s.MinLength != nil && int64(len(str)) < *s.MinLength {
		v.add(TooLong, p, str, fmt.Sprintf("%s in body should be at least %d chars long", p, *s.MinLength))
	}
	if len(s.Enum) > 0 {
		ok := false
		supported := make([]string, 0, len(s.Enum))
		for _, e := range s.Enum {
			es := fmt.Sprint(e)
			supported = append(supported, es)
			if es == str {
				ok = true
			}
		}
		if !ok {
			v.errs = append(v.errs, Error{Type: NotSupported, Path: p, Value: str, Supported: supported})
		}
	}
	if s.pattern != nil && !s.pattern.MatchString(str) {
		v.add(Pattern, p, str, fmt.Sprintf("%s in body should match '%s'", p, s.Pattern))
	}
	return true
}
