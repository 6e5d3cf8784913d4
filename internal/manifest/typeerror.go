package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	configv1 "github.com/openshift/api/config/v1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// maxDecodeIssues bounds the type errors reported for one object: each one
// costs a decode of the whole object, and past a screenful more of them do
// not help the person fixing the file.
const maxDecodeIssues = 50

// decodeIssue is one value of an object its API type refuses.
type decodeIssue struct {
	msg string
	pos Position
}

// decodeProblems reports every value of the object the API type refuses,
// in file order, starting from err, the error of decodeTyped. encoding/json
// reports only the first type error (in its own order, keys sorted, so not
// even the first in the file), and a person fixing a file one error per
// run goes back and forth. Rather than re-implementing json's rules (embedded
// structs, case-insensitive keys, the custom unmarshalers of metav1.Time or
// RawExtension...), each refused value is replaced with null, which json
// accepts for any Go type, in a copy of Content and the copy decoded again,
// until it decodes or the error cannot be placed exactly.
func (o *Object) decodeProblems(err error) []decodeIssue {
	var out []decodeIssue
	// Errors are found by changing values of a copy: Content is what rules
	// read.
	content := copyContent(o.Content).(map[string]any)
	seen := map[string]bool{}
	for err != nil && len(out) < maxDecodeIssues {
		msg, pos, p, exact := o.describeDecodeError(content, err)
		if exact && seen[p.String()] {
			break // nulling did not help: the same error again
		}
		out = append(out, decodeIssue{msg, pos})
		if !exact {
			break
		}
		seen[p.String()] = true
		if !setNull(content, p) {
			break
		}
		_, err = decodeAs(o.Kind, o.APIVersion, content)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].pos, out[j].pos
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
	return out
}

// describeDecodeError turns one decode error of content into a message for
// the person who wrote the manifest and the position of the offending
// value; p is that value's path, exact when it can be trusted to null the
// value out. A json.UnmarshalTypeError names Go types and the field without
// sequence indexes ("Go struct field ImageSpec.spec.additionalTrustedCA of
// type v1.ConfigMapNameReference"), and the object's first line says
// nothing about where the mistake is.
func (o *Object) describeDecodeError(content map[string]any, err error) (msg string, pos Position, p Path, exact bool) {
	var ue *json.UnsupportedValueError
	if errors.As(err, &ue) {
		// .nan and .inf are YAML floats JSON cannot carry: oc refuses
		// the file before the API server sees it.
		if p, ok := nonFinitePath(content, nil); ok {
			n := o.nodeAt(p)
			text := ue.Str
			if n != nil {
				text = n.Value
			}
			return fmt.Sprintf("%s: %s: %s is not a number JSON can carry (no NaN or infinity); write a real number or quote it", o.Ref(), p, text), o.Locate(p), p, len(p) > 0
		}
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		// A field's own parser (a timestamp...) failed: its message is
		// already about the value, only the JSON prefix is noise.
		text := strings.TrimPrefix(err.Error(), "json: ")
		if p, ok := o.customErrorPath(content, err); ok {
			return fmt.Sprintf("%s: %s: invalid value: %s", o.Ref(), p, text), o.Locate(p), p, true
		}
		return fmt.Sprintf("%s: invalid value: %s", o.Ref(), text), o.Position(), nil, false
	}
	p, exact = typeErrorPath(content, te)
	pos = o.Locate(p)
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
	msg = fmt.Sprintf("%s: %s: expected %s, found %s", o.Ref(), where, describeExpected(te.Type), found)
	switch {
	case looksLikePlaceholder(text):
		msg += " — it looks like an unrendered template placeholder: render the template before linting"
	case text != "" && wantsQuoting(te):
		// yes/no/on/off and bare numbers are not strings in YAML 1.1,
		// which is what oc and kubectl parse manifests as.
		msg += fmt.Sprintf(" — quote it (%q) to make it a string", text)
	}
	return msg, pos, p, exact && len(p) > 0
}

// customErrorBudget bounds the decodes spent finding where a field's own
// parser failed.
const customErrorBudget = 200

// customErrorPath finds the value whose own parser (metav1.Time...) failed
// with err: json aborts on such an error without saying where, and without
// a place the later errors of the object would stay hidden. Nulling a value
// that holds the culprit makes err go away, so the search descends into the
// first child whose nulling does. content is changed and restored.
func (o *Object) customErrorPath(content map[string]any, err error) (Path, bool) {
	budget := customErrorBudget
	gone := func() bool {
		budget--
		_, e := decodeAs(o.Kind, o.APIVersion, content)
		return e == nil || e.Error() != err.Error()
	}
	var p Path
	var cur any = content
	for {
		var next any
		found := false
		switch c := cur.(type) {
		case map[string]any:
			keys := slices.Sorted(maps.Keys(c))
			for _, k := range keys {
				if budget <= 0 {
					return nil, false
				}
				saved := c[k]
				c[k] = nil
				found = gone()
				c[k] = saved
				if found {
					p, next = append(p, k), saved
					break
				}
			}
		case []any:
			for i, saved := range c {
				if budget <= 0 {
					return nil, false
				}
				c[i] = nil
				found = gone()
				c[i] = saved
				if found {
					p, next = append(p, i), saved
					break
				}
			}
		}
		if !found {
			return p, len(p) > 0
		}
		cur = next
	}
}

// wantsQuoting tells whether quoting the refused value would make it
// valid: a string field given a number or a boolean YAML read from a bare
// word. For an enum ("5" is no more a MirrorSourcePolicy than 5) the
// message lists the allowed values instead.
func wantsQuoting(te *json.UnmarshalTypeError) bool {
	t := te.Type
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.String || enumValues[t] != nil {
		return false
	}
	return te.Value == "bool" || strings.HasPrefix(te.Value, "number")
}

// enumValues lists the allowed values of the named string types of the
// mirror kinds that take one of a few constants. reflect cannot enumerate a
// type's constants; they are written with the constants themselves so a
// rename in openshift/api breaks the build rather than the message.
var enumValues = map[reflect.Type][]string{
	reflect.TypeFor[configv1.MirrorSourcePolicy](): {string(configv1.NeverContactSource), string(configv1.AllowContactingSource)},
	reflect.TypeFor[configv1.ImportModeType]():     {string(configv1.ImportModeLegacy), string(configv1.ImportModePreserveOriginal)},
}

// copyContent copies the maps and slices of plain data, so nulling a value
// in the copy leaves Content, which rules read, as written.
func copyContent(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = copyContent(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = copyContent(e)
		}
		return out
	}
	return v
}

// setNull replaces the value at p in content with nil, keeping sequence
// indexes (and so the paths of later errors) as they are. It reports
// whether p existed.
func setNull(content map[string]any, p Path) bool {
	var cur any = content
	for i, e := range p {
		last := i == len(p)-1
		switch e := e.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return false
			}
			if _, ok := m[e]; !ok {
				return false
			}
			if last {
				m[e] = nil
				return true
			}
			cur = m[e]
		case int:
			s, ok := cur.([]any)
			if !ok || e < 0 || e >= len(s) {
				return false
			}
			if last {
				s[e] = nil
				return true
			}
			cur = s[e]
		default:
			return false
		}
	}
	return false
}

// typeErrorPath finds the path of the value json refused in content. The
// error's byte offset into the JSON document is exact (it is just past the
// offending scalar, or just past the "[" or "{" of the offending
// collection), so the JSON is re-read token by token to the same offset,
// tracking indexes json's Field leaves out. When that fails, the deepest
// part of Field that exists is used, and exact is false.
func typeErrorPath(content map[string]any, te *json.UnmarshalTypeError) (p Path, exact bool) {
	if raw, err := json.Marshal(content); err == nil {
		if p, ok := pathAtOffset(raw, te.Offset); ok {
			return p, true
		}
	}
	return ParsePath(te.Field), false
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
	if vals := enumValues[t]; vals != nil {
		return "one of " + strings.Join(vals, ", ")
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
		keys := slices.Sorted(maps.Keys(v))
		for _, k := range keys {
			if q, ok := nonFinitePath(v[k], p.Child(k)); ok {
				return q, true
			}
		}
	}
	return nil, false
}
