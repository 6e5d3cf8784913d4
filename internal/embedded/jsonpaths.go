package embedded

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Span is where a JSON value sits in its document: the offsets of the
// key naming it (-1 for a list item or the root) and of the value.
type Span struct {
	Key, Value int
}

// SyntaxError is a JSON document that does not parse, with the offset of
// the byte where parsing stopped.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return e.Msg }

// JSONPaths scans a JSON document and returns the span of every value by
// its path, written as manifest.Path prints it ("imageDigestSources[0].
// mirrors[1]"; the root is ""). Where a key repeats, the last one wins, as
// encoding/json decodes it. It only locates: decoding (and strictness) is
// left to encoding/json, so both read the same bytes.
func JSONPaths(doc string) (map[string]Span, error) {
	s := &scanner{doc: doc, out: map[string]Span{}}
	s.space()
	if err := s.value("", -1); err != nil {
		return s.out, err
	}
	s.space()
	if s.i < len(s.doc) {
		return s.out, s.fail("invalid character %s after top-level value", s.quoteChar())
	}
	return s.out, nil
}

// maxDepth bounds nesting, as encoding/json does (10000); far beyond any
// install-config override.
const maxDepth = 10000

type scanner struct {
	doc   string
	i     int
	depth int
	out   map[string]Span
}

func (s *scanner) fail(format string, args ...any) error {
	return &SyntaxError{Offset: s.i, Msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) quoteChar() string {
	if s.i >= len(s.doc) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(s.doc[s.i:])
	return strconv.QuoteRune(r)
}

func (s *scanner) space() {
	for s.i < len(s.doc) {
		switch s.doc[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) value(path string, keyOff int) error {
	if s.i >= len(s.doc) {
		return s.fail("unexpected end of JSON input")
	}
	s.out[path] = Span{Key: keyOff, Value: s.i}
	switch c := s.doc[s.i]; {
	case c == '{':
		return s.object(path)
	case c == '[':
		return s.array(path)
	case c == '"':
		_, err := s.str()
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(s.doc)-s.i >= len(lit) && s.doc[s.i:s.i+len(lit)] == lit {
				s.i += len(lit)
				return nil
			}
		}
		return s.fail("invalid character %s looking for beginning of value", s.quoteChar())
	}
}

func (s *scanner) nest() error {
	if s.depth++; s.depth > maxDepth {
		return s.fail("exceeded max depth")
	}
	return nil
}

func (s *scanner) object(path string) error {
	if err := s.nest(); err != nil {
		return err
	}
	defer func() { s.depth-- }()
	s.i++ // {
	s.space()
	if s.i < len(s.doc) && s.doc[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		s.space()
		if s.i >= len(s.doc) || s.doc[s.i] != '"' {
			return s.fail("invalid character %s looking for beginning of object key string", s.quoteChar())
		}
		keyOff := s.i
		key, err := s.str()
		if err != nil {
			return err
		}
		s.space()
		if s.i >= len(s.doc) || s.doc[s.i] != ':' {
			return s.fail("invalid character %s after object key", s.quoteChar())
		}
		s.i++
		s.space()
		child := key
		if path != "" {
			child = path + "." + key
		}
		if err := s.value(child, keyOff); err != nil {
			return err
		}
		if done, err := s.next('}', "object key:value pair"); done || err != nil {
			return err
		}
	}
}

func (s *scanner) array(path string) error {
	if err := s.nest(); err != nil {
		return err
	}
	defer func() { s.depth-- }()
	s.i++ // [
	s.space()
	if s.i < len(s.doc) && s.doc[s.i] == ']' {
		s.i++
		return nil
	}
	for n := 0; ; n++ {
		s.space()
		if err := s.value(fmt.Sprintf("%s[%d]", path, n), -1); err != nil {
			return err
		}
		if done, err := s.next(']', "array element"); done || err != nil {
			return err
		}
	}
}

// str reads a string, returning its decoded value for object keys.
func (s *scanner) str() (string, error) {
	start := s.i
	s.i++ // "
	for s.i < len(s.doc) {
		switch c := s.doc[s.i]; {
		case c == '"':
			s.i++
			v, err := strconv.Unquote(s.doc[start:s.i])
			if err != nil {
				v = s.doc[start+1 : s.i-1]
			}
			return v, nil
		case c == '\\':
			if err := s.escape(); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", s.fail("invalid character %s in string literal", s.quoteChar())
		default:
			s.i++
		}
	}
	return "", s.fail("unexpected end of JSON input")
}

// number reads a number by JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() error {
	digits := func() int {
		n := 0
		for s.i < len(s.doc) && s.doc[s.i] >= '0' && s.doc[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	bad := func() error { return s.fail("invalid character %s in numeric literal", s.quoteChar()) }
	if s.doc[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.doc) && s.doc[s.i] == '0':
		s.i++
	case digits() == 0:
		return bad()
	}
	if s.i < len(s.doc) && s.doc[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return bad()
		}
	}
	if s.i < len(s.doc) && (s.doc[s.i] == 'e' || s.doc[s.i] == 'E') {
		s.i++
		if s.i < len(s.doc) && (s.doc[s.i] == '+' || s.doc[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return bad()
		}
	}
	return nil
}

// escape checks the escape at a backslash and steps over it.
func (s *scanner) escape() error {
	s.i++
	if s.i >= len(s.doc) {
		return s.fail("unexpected end of JSON input")
	}
	switch s.doc[s.i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i++
		return nil
	case 'u':
		s.i++
		for range 4 {
			if s.i >= len(s.doc) {
				return s.fail("unexpected end of JSON input")
			}
			if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s.doc[s.i])) {
				return s.fail("invalid character %s in \\u hexadecimal character escape", s.quoteChar())
			}
			s.i++
		}
		return nil
	}
	return s.fail("invalid character %s in string escape code", s.quoteChar())
}

// next steps over what follows a member of an object or array: a comma
// (done false) or the closing byte (done true); what names the member in
// the error, as encoding/json words it.
func (s *scanner) next(closing byte, what string) (done bool, err error) {
	s.space()
	if s.i >= len(s.doc) {
		return false, s.fail("unexpected end of JSON input")
	}
	switch s.doc[s.i] {
	case ',':
		s.i++
		return false, nil
	case closing:
		s.i++
		return true, nil
	}
	return false, s.fail("invalid character %s after %s", s.quoteChar(), what)
}
