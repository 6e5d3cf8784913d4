package inputs

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// decodeError is the first thing assisted-service's strict decode of an
// overrides document refuses: encoding/json saves the first error it
// meets in document order, an unknown key or a value of the wrong type,
// and returns that one.
type decodeError struct {
	// At is the path of the object holding the unknown key, or of the
	// value of the wrong type.
	At manifest.Path
	// Key is the unknown key, "" for a type error.
	Key string
	// Message is encoding/json's: `json: unknown field "mtu"`, `json:
	// cannot unmarshal string into Go struct field
	// InstallerConfigBaremetal.fips of type bool`.
	Message string
	// Want says what the value must be, for a type error ("true or false").
	Want string
}

// frame is where encoding/json is in the Go value, for its messages: the
// innermost struct type's name and the JSON names of the fields from the
// top (list indices are not among them).
type frame struct {
	strct  string
	fields []string
}

func (f frame) child(strct, field string) frame {
	return frame{strct: strct, fields: append(append([]string(nil), f.fields...), field)}
}

// firstDecodeError decodes doc against s as encoding/json decodes it into
// the Go type s models, with DisallowUnknownFields, and returns the first
// error; ok is false when there is none (or doc is no JSON, which others
// report).
func firstDecodeError(doc string, s *shape) (e decodeError, ok bool) {
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	skip := func() bool {
		var v json.RawMessage
		return dec.Decode(&v) == nil
	}
	// rest skips what is left of an object or a list whose opening
	// token was read, and its closing one.
	rest := func(object bool) bool {
		for dec.More() {
			if object {
				if _, err := dec.Token(); err != nil {
					return false
				}
			}
			if !skip() {
				return false
			}
		}
		_, err := dec.Token()
		return err == nil
	}
	fail := func(at manifest.Path, value string, s *shape, in frame) bool {
		msg := "json: cannot unmarshal " + value + " into Go value of type " + s.typ
		if in.strct != "" || len(in.fields) > 0 {
			msg = "json: cannot unmarshal " + value + " into Go struct field " + in.strct + "." + strings.Join(in.fields, ".") + " of type " + s.typ
		}
		e, ok = decodeError{At: at, Message: msg, Want: s.kind.want()}, true
		return false
	}
	var walk func(s *shape, at manifest.Path, in frame) bool
	walk = func(s *shape, at manifest.Path, in frame) bool {
		if s == nil {
			return skip()
		}
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		checked := s.kind != kindUnchecked
		switch t := tok.(type) {
		case nil:
			return true // null decodes into any type, leaving it as it was
		case json.Delim:
			object := t == '{'
			if object && s.fields == nil || !object && s.elem == nil {
				// An object where a list or a scalar belongs, or the
				// reverse: a type error, its content never read.
				if checked {
					return fail(at, map[bool]string{true: "object", false: "array"}[object], s, in)
				}
				return rest(object)
			}
			if !object {
				for i := 0; dec.More(); i++ {
					if !walk(s.elem, at.Child(i), in) {
						return false
					}
				}
				_, err := dec.Token()
				return err == nil
			}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return false
				}
				name, _ := kt.(string)
				sub, canon, known := s.field(name)
				if !known {
					e, ok = decodeError{At: at, Key: name, Message: strconv.Quote(name)}, true
					e.Message = "json: unknown field " + e.Message
					return false
				}
				if !walk(sub, at.Child(name), in.child(s.name, canon)) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		case string:
			if checked && s.kind != kindString {
				return fail(at, "string", s, in)
			}
		case bool:
			if checked && s.kind != kindBool {
				return fail(at, "bool", s, in)
			}
		case json.Number:
			switch s.kind {
			case kindUnchecked:
			case kindInt, kindInt32:
				n, err := strconv.ParseInt(string(t), 10, 64)
				if err != nil || s.kind == kindInt32 && (n < math.MinInt32 || n > math.MaxInt32) {
					return fail(at, "number "+string(t), s, in)
				}
			default:
				return fail(at, "number", s, in)
			}
		}
		return true
	}
	walk(s, nil, frame{})
	return e, ok
}

// want says in words the JSON a kind of value takes.
func (k valueKind) want() string {
	switch k {
	case kindString:
		return "a JSON string (quoted)"
	case kindBool:
		return "true or false, unquoted"
	case kindInt, kindInt32:
		return "a whole number, unquoted"
	case kindObject:
		return "a JSON object"
	case kindList:
		return "a JSON list"
	}
	return ""
}
