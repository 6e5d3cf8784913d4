package safefs

import (
	"errors"
	"strings"
	"testing"
)

const billionLaughs = `apiVersion: v1
kind: ConfigMap
metadata:
  name: lol
data:
  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
  g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
  h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
  i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`

func TestCheckYAML(t *testing.T) {
	deepFlow := "a: " + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + "\n"
	var deepBlock strings.Builder
	for i := range 300 {
		deepBlock.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	for name, tc := range map[string]struct {
		text string
		line int
		bad  bool
	}{
		"billion laughs":  {billionLaughs, 11, true},
		"deep flow":       {deepFlow, 1, true},
		"deep block":      {deepBlock.String(), 0, true},
		"manifest":        {"apiVersion: v1\nkind: ConfigMap\ndata: {a: \"[[[[\", b: '{{{{'}\n", 0, false},
		"few aliases":     {"a: &x {k: v}\nb: *x\nc: *x\n", 0, false},
		"brackets quoted": {"a: \"" + strings.Repeat("[", 500) + "\"\n", 0, false},
		"not yaml":        {"a: [\n\t:", 0, false},
	} {
		t.Run(name, func(t *testing.T) {
			err := CheckYAML("f.yaml", []byte(tc.text))
			if tc.bad != (err != nil) {
				t.Fatalf("CheckYAML = %v, want refused=%v", err, tc.bad)
			}
			if !tc.bad {
				return
			}
			var pe *PositionedError
			if !errors.As(err, &pe) || !errors.Is(err, ErrYAMLBounds) {
				t.Fatalf("error %v is not a positioned bounds refusal", err)
			}
			if tc.line > 0 && pe.Line != tc.line {
				t.Errorf("refused at line %d, want %d (%v)", pe.Line, tc.line, err)
			}
		})
	}
}
