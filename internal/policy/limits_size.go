package policy

import (
	"errors"

	"github.com/open-policy-agent/opa/v1/ast"
)

var errStop = errors.New("stop")

// printedSize estimates how long v is once printed (JSON, Rego or YAML):
// its strings, numbers and separators, with perLine(depth) more for each
// value when it is pretty-printed. A value is counted each time it is
// referenced, so an array holding the same large string a million times
// counts a million of them, as the printed text would. Counting stops
// just past MaxBuiltinBytes, so its cost is bounded too.
func printedSize(v ast.Value, perLine func(depth int) int64) int64 {
	s := sizer{perLine: perLine}
	s.value(v, 0)
	return s.total
}

type sizer struct {
	total   int64
	perLine func(depth int) int64
}

func (s *sizer) add(n int64) bool {
	s.total = addSat(s.total, n)
	return s.total <= MaxBuiltinBytes
}

// value adds v; false once past the limit.
func (s *sizer) value(v ast.Value, depth int) bool {
	if s.perLine != nil && !s.add(s.perLine(depth)) {
		return false
	}
	switch x := v.(type) {
	case ast.String:
		return s.add(int64(len(x)) + 2)
	case ast.Number:
		return s.add(int64(len(x)))
	case ast.Boolean:
		return s.add(5)
	case ast.Null:
		return s.add(4)
	case *ast.Array:
		if !s.add(2) {
			return false
		}
		for i := range x.Len() {
			if !s.add(1) || !s.value(x.Elem(i).Value, depth+1) {
				return false
			}
		}
		return true
	case ast.Set:
		if !s.add(2) {
			return false
		}
		err := x.Iter(func(t *ast.Term) error {
			if !s.add(1) || !s.value(t.Value, depth+1) {
				return errStop
			}
			return nil
		})
		return err == nil
	case ast.Object:
		if !s.add(2) {
			return false
		}
		err := x.Iter(func(k, val *ast.Term) error {
			if !s.add(2) || !s.value(k.Value, depth+1) || !s.value(val.Value, depth+1) {
				return errStop
			}
			return nil
		})
		return err == nil
	}
	return s.add(int64(len(v.String())))
}
