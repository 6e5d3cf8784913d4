package build

import (
	"github.com/mirrorlint/mirrorlint/internal/safefs"

	"fmt"
	"reflect"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// kustomize decodes a kustomization with encoding/json (YAML converted to
// JSON, unknown fields refused) and passes json's error through: it names
// Go types ("Go struct field Kustomization.patches of type types.Patch") and
// no entry index, and discovery, which keeps only well-formed entries,
// would blame the first entry of the field. These match that error.
var (
	jsonTypeErr    = regexp.MustCompile(`json: cannot unmarshal (\w+) into Go (?:struct field Kustomization\.([\w.]+)|value) of type`)
	jsonUnknownErr = regexp.MustCompile(`json: unknown field "([^"]*)"`)
)

// shapeProblem rewords a kustomize error that is encoding/json refusing
// the shape of a kustomization, and positions it on the offending value:
// the kustomization files of the build are read again as YAML and walked
// against types.Kustomization, the type kustomize decodes into. ok is false
// for any other error, or when no file has the mistake the error describes.
func (d *env) shapeProblem(err error, kusts []*kustomization.File) (manifest.Problem, bool) {
	msg := err.Error()
	var want shapeIssue
	if m := jsonTypeErr.FindStringSubmatch(msg); m != nil {
		want = shapeIssue{found: jsonFound(m[1]), field: strings.ToLower(strings.SplitN(m[2], ".", 2)[0])}
	} else if m := jsonUnknownErr.FindStringSubmatch(msg); m != nil {
		want = shapeIssue{unknown: m[1]}
	} else {
		return manifest.Problem{}, false
	}
	for _, k := range kusts {
		root := readKustRoot(k.Path)
		if root == nil {
			continue
		}
		var got []shapeIssue
		checkShape(root, reflect.TypeFor[types.Kustomization](), "", &got)
		for _, is := range got {
			if is.matches(want) {
				return d.kustProblem(k, is.node.Line, is.node.Column, "invalid kustomization: "+is.message()), true
			}
		}
	}
	return manifest.Problem{}, false
}

// readKustRoot returns the top mapping of a kustomization file, nil when
// it cannot be read as one (the build error then is not about shapes).
func readKustRoot(path string) *yaml.Node {
	data, err := safefs.ReadRegular(path)
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	if r := kustomization.DerefNode(doc.Content[0]); r != nil && r.Kind == yaml.MappingNode {
		return r
	}
	return nil
}

// shapeIssue is one value whose YAML shape the Go type refuses, or one key
// the type does not have.
type shapeIssue struct {
	path     string     // "patches[2]", "patches[0].target"; for an unknown field, of its mapping
	node     *yaml.Node // the value, or the key of an unknown field
	expected string     // "a mapping (path:, patch:, target: or options:)"
	found    string     // "a string", "a list"...
	text     string     // the scalar as written, "" for collections
	unknown  string     // the key, for an unknown field
	field    string     // the top-level field, lower case (type errors only)
}

// matches tells whether the issue is the one json reported: same kind of
// mistake, in the same top-level field (json matches keys ignoring case).
func (is shapeIssue) matches(want shapeIssue) bool {
	if want.unknown != "" {
		return is.unknown == want.unknown
	}
	return is.unknown == "" && is.found == want.found && (want.field == "" || is.field == want.field)
}

func (is shapeIssue) message() string {
	if is.unknown != "" {
		msg := fmt.Sprintf("unknown field %q", is.unknown)
		if is.path != "" {
			msg = is.path + ": " + msg
		}
		if keys := keyList(is.expected); keys != "" {
			msg += " (expected " + keys + ")"
		}
		return msg
	}
	found := is.found
	if is.text != "" {
		t := is.text
		if utf8.RuneCountInString(t) > 60 {
			t = string([]rune(t)[:60]) + "…"
		}
		if found == "a string" {
			t = fmt.Sprintf("%q", t)
		}
		found += " (" + t + ")"
	}
	return fmt.Sprintf("%s: expected %s, found %s", is.path, is.expected, found)
}

// keyList returns the keys listed in an expectedShape answer for a struct
// ("path:, patch: or target:"), "" when it lists none.
func keyList(expected string) string {
	if k, ok := strings.CutPrefix(expected, "a mapping ("); ok && strings.HasSuffix(k, ":)") {
		return strings.TrimSuffix(k, ")")
	}
	return ""
}

// jsonFound words json's name for the JSON type it found.
func jsonFound(v string) string {
	switch v {
	case "string":
		return "a string"
	case "array":
		return "a list"
	case "object":
		return "a mapping"
	case "bool":
		return "a boolean"
	case "number":
		return "a number"
	}
	return v
}

// maxShapeIssues bounds the walk of a hostile kustomization.
const maxShapeIssues = 100

// checkShape walks n against t as encoding/json would decode its JSON form,
// appending every value of the wrong shape and every unknown key to out.
func checkShape(n *yaml.Node, t reflect.Type, path string, out *[]shapeIssue) {
	n = kustomization.DerefNode(n)
	if n == nil || len(*out) >= maxShapeIssues {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	found, text := yamlFound(n)
	if found == "" || t.Kind() == reflect.Interface {
		return // null fits anything; an interface takes any value
	}
	bad := func() {
		is := shapeIssue{path: path, node: n, expected: expectedShape(t), found: found, text: text}
		is.field = strings.ToLower(strings.SplitN(strings.SplitN(path, "[", 2)[0], ".", 2)[0])
		*out = append(*out, is)
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			bad()
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
				continue
			}
			f, ok := jsonField(t, k.Value)
			if !ok {
				is := shapeIssue{path: path, node: k, expected: expectedShape(t), unknown: k.Value}
				*out = append(*out, is)
				continue
			}
			checkShape(n.Content[i+1], f.Type, joinPath(path, k.Value), out)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			bad()
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			checkShape(n.Content[i+1], t.Elem(), joinPath(path, n.Content[i].Value), out)
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			if found != "a string" {
				bad()
			}
			return
		}
		if n.Kind != yaml.SequenceNode {
			bad()
			return
		}
		for i, c := range n.Content {
			checkShape(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i), out)
		}
	case reflect.String:
		if found != "a string" {
			bad()
		}
	case reflect.Bool:
		if found != "a boolean" {
			bad()
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		if found != "a number" {
			bad()
		}
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// yamlFound names what n is once in JSON, as kustomize's YAML-to-JSON
// conversion (YAML 1.1: yes/no/on/off are booleans) makes it: "" for null.
func yamlFound(n *yaml.Node) (found, text string) {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping", ""
	case yaml.SequenceNode:
		return "a list", ""
	case yaml.ScalarNode:
	default:
		return "", ""
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return "a string", n.Value
	}
	switch n.ShortTag() {
	case "!!null":
		return "", ""
	case "!!bool":
		return "a boolean", n.Value
	case "!!int", "!!float":
		return "a number", n.Value
	case "!!str":
		if n.Style&yaml.TaggedStyle == 0 {
			switch strings.ToLower(n.Value) {
			case "y", "yes", "on", "n", "no", "off":
				return "a boolean", n.Value
			}
		}
	}
	return "a string", n.Value
}

// expectedShape words what a value of type t is written as; for a struct,
// its keys, so a person sees what the entry is made of.
func expectedShape(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct:
		names := jsonNames(t)
		if len(names) == 0 || len(names) > 4 {
			return "a mapping"
		}
		for i := range names {
			names[i] += ":"
		}
		if len(names) == 1 {
			return "a mapping (" + names[0] + ")"
		}
		return "a mapping (" + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + ")"
	case reflect.Map:
		return "a mapping (key: value)"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a string"
		}
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	if t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64 {
		return "a whole number"
	}
	return "another type"
}

// jsonNames lists the keys of a struct as encoding/json reads them,
// embedded structs' keys included, in declaration order.
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, skip := jsonName(f)
		switch {
		case skip:
		case f.Anonymous && name == "" && indirect(f.Type).Kind() == reflect.Struct:
			out = append(out, jsonNames(indirect(f.Type))...)
		case f.IsExported():
			if name == "" {
				name = f.Name
			}
			out = append(out, name)
		}
	}
	return out
}

// jsonField finds the field json decodes key into: an exact name first,
// then one equal ignoring case, as encoding/json does.
func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	var fold reflect.StructField
	folded := false
	var walk func(t reflect.Type) bool
	walk = func(t reflect.Type) bool {
		for i := range t.NumField() {
			f := t.Field(i)
			name, skip := jsonName(f)
			if skip {
				continue
			}
			if f.Anonymous && name == "" && indirect(f.Type).Kind() == reflect.Struct {
				if walk(indirect(f.Type)) {
					return true
				}
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if name == key {
				fold, folded = f, true
				return true
			}
			if !folded && strings.EqualFold(name, key) {
				fold, folded = f, true
			}
		}
		return false
	}
	walk(t)
	return fold, folded
}

func jsonName(f reflect.StructField) (name string, skip bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", true
	}
	name, _, _ = strings.Cut(tag, ",")
	return name, false
}

func indirect(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
