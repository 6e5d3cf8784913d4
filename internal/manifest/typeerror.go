package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// decodeProblem turns the error of decodeTyped into a message for the person
// who wrote the manifest, and the position of the offending value. A
// json.UnmarshalTypeError names Go types and the field without sequence
// indexes ("Go struct field ImageSpec.spec.additionalTrustedCA of type
// v1.ConfigMapNameReference"), and the object's first line says nothing
// about where the mistake is.
func (o *Object) decodeProblem(err error) (string, Position) {
	var ue *json.UnsupportedValueError
	if errors.As(err, &ue) {
		// .nan and .inf are YAML floats JSON cannot carry: oc refuses
		// the file before the API server sees it.
		if p, ok := nonFinitePath(o.Content, nil); ok {
			n := o.nodeAt(p)
			text := ue.Str
			if n != nil {
				text = n.Value
			}
			return fmt.Sprintf("%s: %s: %s is not a number JSON can carry (no NaN or infinity); write a real number or quote it", o.Ref(), p, text), o.Locate(p)
		}
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		// A field's own parser (a timestamp...) failed: its message is
		// already about the value, only the JSON prefix is noise.
		return fmt.Sprintf("%s: invalid value: %s", o.Ref(), strings.TrimPrefix(err.Error(), "json: ")), o.Position()
	}
	p := o.typeErrorPath(te)
	pos := o.Locate(p)
	where := p.String()
	if where == "" {
		where = te.Field
	}
	found := describeFound(te.Value)
	n := o.nodeAt(p)
	text := ""
	if n != nil && n.Kind == yaml.ScalarNode {
		text = n.Value
		found += " (" + quoteShort(text, te.Value) + ")"
	}
	msg := fmt.Sprintf("%s: %s: expected %s, found %s", o.Ref(), where, describeExpected(te.Type), found)
	switch {
	case looksLikePlaceholder(text):
		msg += " — it looks like an unrendered template placeholder: render the template before linting"
	case text != "" && te.Type != nil && te.Type.Kind() == reflect.String:
		// yes/no/on/off and bare numbers are not strings in YAML 1.1,
		// which is what oc and kubectl parse manifests as.
		msg += fmt.Sprintf(" — quote it (%q) to make it a string", text)
	}
	return msg, pos
}

// typeErrorPath finds the path of the value json refused. The error's byte
// offset into the JSON document is exact (it is just past the offending
// scalar, or just past the "[" or "{" of the offending collection), so the
// JSON is re-read token by token to the same offset, tracking indexes json's
// Field leaves out. When that fails, the deepest part of Field that exists
// is used.
func (o *Object) typeErrorPath(te *json.UnmarshalTypeError) Path {
	if raw, err := json.Marshal(o.Content); err == nil {
		if p, ok := pathAtOffset(raw, te.Offset); ok {
			return p
		}
	}
	return ParsePath(te.Field)
}

// jsonFrame is one open collection while scanning a JSON document.
type jsonFrame struct {
	array     bool
	index     int    // next element index (arrays)
	key       string // current key (objects)
	expectKey bool
}

func pathAtOffset(raw []byte, offset int64) (Path, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var stack []jsonFrame
	// cur is the path of the value the next token starts.
	cur := func() Path {
		var p Path
		for _, f := range stack {
			if f.array {
				p = append(p, f.index)
			} else {
				p = append(p, f.key)
			}
		}
		return p
	}
	for {
		var top *jsonFrame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		here := cur()
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return nil, false
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			valueDone(stack)
			continue
		}
		if top != nil && !top.array && top.expectKey {
			top.key, _ = tok.(string)
			top.expectKey = false
			continue
		}
		if dec.InputOffset() == offset {
			return here, true
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, jsonFrame{array: d == '[', expectKey: d == '{'})
			continue
		}
		valueDone(stack)
	}
}

// valueDone advances the innermost collection past one value.
func valueDone(stack []jsonFrame) {
	if len(stack) == 0 {
		return
	}
	f := &stack[len(stack)-1]
	if f.array {
		f.index++
	} else {
		f.expectKey = true
	}
}

// nodeAt returns the node at p when the whole path exists.
func (o *Object) nodeAt(p Path) *yaml.Node {
	_, val, found := o.walk(p)
	if !found {
		return nil
	}
	return deref(val)
}

func describeExpected(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object (key: value fields)"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number, zero or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return describeExpected(t.Elem())
	}
	return "another type"
}

// describeFound words json's name for the JSON type it found ("string",
// "array", "number 1.5"...).
func describeFound(v string) string {
	switch {
	case v == "string":
		return "a string"
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case v == "bool":
		return "a boolean"
	case strings.HasPrefix(v, "number"):
		return "a number"
	}
	return v
}

// quoteShort shows a scalar as written, shortened: strings quoted, other
// scalars bare (1234, yes).
func quoteShort(s, jsonType string) string {
	const max = 60
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max]) + "…"
	}
	if jsonType == "string" {
		return fmt.Sprintf("%q", s)
	}
	return s
}

// placeholderRE matches what unrendered templates leave in values: shell and
// PolicyGen variables ($mirrors, ${NAME}), OpenShift Template JSON
// parameters (${{NAME}}), Helm/Jinja ({{ .Values.x }}) and documentation
// placeholders (<MIRROR_HOST>).
var placeholderRE = regexp.MustCompile(`\$\{\{?[A-Za-z_][A-Za-z0-9_]*\}?\}|\$[A-Za-z_][A-Za-z0-9_]*|\{\{.*\}\}|<[A-Za-z][A-Za-z0-9_-]*>`)

func looksLikePlaceholder(s string) bool { return s != "" && placeholderRE.MatchString(s) }

// nonFinitePath finds the first NaN or infinity in v, in the order
// json.Marshal visits it (map keys sorted), so it is the value Marshal
// refused.
func nonFinitePath(v any, p Path) (Path, bool) {
	switch v := v.(type) {
	case float64:
		return p, math.IsNaN(v) || math.IsInf(v, 0)
	case []any:
		for i, e := range v {
			if q, ok := nonFinitePath(e, p.Child(i)); ok {
				return q, true
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if q, ok := nonFinitePath(v[k], p.Child(k)); ok {
				return q, true
			}
		}
	}
	return nil, false
}
