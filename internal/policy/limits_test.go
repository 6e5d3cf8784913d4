package policy

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// call runs builtin name (the capped one unless orig) on the operands
// written in Rego.
func call(t *testing.T, name string, orig bool, operands ...any) (*ast.Term, error) {
	t.Helper()
	f := topdown.GetBuiltin(name)
	if orig {
		f = uncapped[name]
	}
	ops := make([]*ast.Term, len(operands)+1)
	for i, o := range operands {
		switch v := o.(type) {
		case string:
			ops[i] = ast.MustParseTerm(v)
		case *ast.Term:
			ops[i] = v
		}
	}
	ops[len(operands)] = ast.VarTerm("out")
	var out *ast.Term
	err := f(topdown.BuiltinContext{Context: context.Background()}, ops, func(t *ast.Term) error { out = t; return nil })
	return out, err
}

// Below the limits the capped builtins give what OPA's own give, errors
// included.
func TestCappedBuiltinsBelowTheLimitsAreOPAs(t *testing.T) {
	t.Parallel()
	cases := [][]string{
		{"numbers.range", "1", "5"},
		{"numbers.range", "5", "-2"},
		{"numbers.range", "1", "1.5"},
		{"numbers.range_step", "0", "10", "3"},
		{"numbers.range_step", "0", "10", "0"},
		{"net.cidr_expand", `"10.0.0.0/30"`},
		{"net.cidr_expand", `"not a cidr"`},
		{"bits.lsh", "3", "10"},
		{"split", `"a,b,,c"`, `","`},
		{"split", `"héllo"`, `""`},
		{"strings.split_n", `"a,b,c"`, `","`, "2"},
		{"indexof_n", `"abcabc"`, `"bc"`},
		{"array.flatten", `[1, [2, [3, 4]], []]`},
		{"regex.split", `"[,;]"`, `"a,b;c"`},
		{"regex.find_n", `"[0-9]+"`, `"a1b22c333"`, "-1"},
		{"regex.find_all_string_submatch_n", `"(a)(b)?"`, `"abaab"`, "-1"},
		{"concat", `"/"`, `["quay.io", "acme", "app"]`},
		{"concat", `", "`, `{"b", "a"}`},
		{"concat", `","`, `[1]`},
		{"sprintf", `"%s has %d mirrors (%5.2f%%) %v"`, `["quay.io", 3, 1.5, {"a": [1]}]`},
		{"sprintf", `"%[1]s/%[1]s %*d"`, `["x", 4, 7]`},
		{"replace", `"a.b.c"`, `"."`, `"/"`},
		{"replace", `"abc"`, `""`, `"-"`},
		{"strings.replace_n", `{"a": "xyz", "": "-"}`, `"banana"`},
		{"regex.replace", `"a1b2"`, `"([0-9])"`, `"<$1>"`},
		{"json.marshal", `{"a": [1, "x", null, true]}`},
		{"json.marshal_with_options", `{"a": [1, 2]}`, `{"indent": "  ", "prefix": "> "}`},
		{"yaml.marshal", `{"a": [1, {"b": "c"}]}`},
	}
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c[0]] = true
		args := make([]any, len(c)-1)
		for i, a := range c[1:] {
			args[i] = a
		}
		got, gotErr := call(t, c[0], false, args...)
		want, wantErr := call(t, c[0], true, args...)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Errorf("%v: error %v, OPA's %v", c, gotErr, wantErr)
			continue
		}
		if !got.Equal(want) {
			t.Errorf("%v = %v, OPA's %v", c, got, want)
		}
	}
	for name := range predictors {
		if !covered[name] {
			t.Errorf("%s is capped but has no case here", name)
		}
	}
}

// Above the limits the call is refused before anything is built: each of
// these would allocate from hundreds of megabytes to exabytes.
func TestCappedBuiltinsRefuseWhatIsOverTheLimits(t *testing.T) {
	t.Parallel()
	big := ast.StringTerm(strings.Repeat("x", MaxBuiltinBytes/2))
	many := ast.StringTerm(strings.Repeat(",", MaxBuiltinElements+1))
	bigs := func(n int) *ast.Term {
		ts := make([]*ast.Term, n)
		for i := range ts {
			ts[i] = big
		}
		return ast.ArrayTerm(ts...)
	}
	cases := []struct {
		args []any
		unit limitUnit
	}{
		{[]any{"numbers.range", "1", "1e9"}, unitElements},
		{[]any{"numbers.range", "-1e30", "0"}, unitElements},
		{[]any{"numbers.range_step", "0", "1e12", "2"}, unitElements},
		{[]any{"net.cidr_expand", `"0.0.0.0/0"`}, unitElements},
		{[]any{"net.cidr_expand", `"::/0"`}, unitElements},
		{[]any{"bits.lsh", "1", "1e9"}, unitBits},
		{[]any{"split", many, `","`}, unitElements},
		{[]any{"strings.split_n", many, `","`, "-1"}, unitElements},
		{[]any{"indexof_n", many, `","`}, unitElements},
		{[]any{"regex.split", `","`, many}, unitElements},
		{[]any{"regex.find_n", `","`, many, "-1"}, unitElements},
		{[]any{"regex.find_all_string_submatch_n", `","`, many, "-1"}, unitElements},
		{[]any{"concat", `""`, bigs(3)}, unitBytes},
		{[]any{"sprintf", ast.StringTerm(strings.Repeat("%1000000d", 20)), "[" + strings.Repeat("1,", 19) + "1]"}, unitBytes},
		{[]any{"sprintf", `"` + strings.Repeat("%[1]s", 3) + `"`, bigs(1)}, unitBytes},
		{[]any{"replace", `"` + strings.Repeat("y", 5000) + `"`, `""`, `"` + strings.Repeat("z", 5000) + `"`}, unitBytes},
		{[]any{"strings.replace_n", `{"": "` + strings.Repeat("z", 5000) + `"}`, `"` + strings.Repeat("y", 5000) + `"`}, unitBytes},
		{[]any{"regex.replace", `"` + strings.Repeat("y", 5000) + `"`, `""`, `"` + strings.Repeat("z", 5000) + `"`}, unitBytes},
		{[]any{"json.marshal", bigs(3)}, unitBytes},
		{[]any{"json.marshal_with_options", bigs(2), `{"pretty": true}`}, unitBytes},
		{[]any{"yaml.marshal", bigs(2)}, unitBytes},
	}
	for _, c := range cases {
		name := c.args[0].(string)
		_, err := call(t, name, false, c.args[1:]...)
		var le *LimitError
		if !errors.As(err, &le) || le.Builtin != name || le.Unit != c.unit || le.Size <= c.unit.max() {
			t.Errorf("%s: %v, want a refusal in %s", name, err, c.unit)
		}
	}
}

const hugeRangePolicy = `package acme.limits

deny contains {"rule": "huge", "msg": "never"} if {
	r := numbers.range(1, 1e9)
	count(r) > 0
}

deny contains {"rule": "small", "msg": sprintf("range of %d", [count(numbers.range(1, 5))])} if {
	true
}
`

// A policy asking for a billion numbers is stopped at the call, at once,
// with an error finding there; its other rules are still evaluated.
func TestPolicyOverABuiltinLimitIsAFinding(t *testing.T) {
	t.Parallel()
	for _, strict := range []bool{false, true} {
		dir := t.TempDir()
		file := filepath.Join(dir, "limits.rego")
		testtree.WriteFile(t, file, hugeRangePolicy)
		e := mustLoad(t, Options{Dirs: []string{dir}, Strict: strict})
		fs, err := e.Evaluate(loadFixture(t, "testdata/manifests"))
		if err != nil {
			t.Fatalf("strict=%v: %v", strict, err)
		}
		checkFindings(t, fs, []want{
			{check.LimitRule.ID, check.Error, file, 4, 7, "", "numbers.range would build 1000000000 elements; one policy builtin call may build at most 1048576 elements, so the call was refused"},
			{"acme.limits/small", check.Error, "", 0, 0, "", "range of 5"},
		})
	}
}

// A policy that keeps calling a refused builtin is stopped, and says so,
// instead of recording refusals until the time limit.
func TestPolicyRefusedTooOftenStops(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "loop.rego")
	testtree.WriteFile(t, file, `package acme.loop

deny contains msg if {
	some i in numbers.range(1, 5000)
	r := numbers.range(i, 1e9)
	msg := sprintf("%d", [count(r)])
}
`)
	e := mustLoad(t, Options{Dirs: []string{dir}})
	fs, err := e.Evaluate(loadFixture(t, "testdata/manifests"))
	if err != nil {
		t.Fatal(err)
	}
	checkFindings(t, fs, []want{
		{check.LimitRule.ID, check.Error, file, 5, 7, "", "numbers.range would build"},
		{check.LimitRule.ID, check.Error, file, 5, 7, "", "stopped after 1000 refused builtin calls"},
	})
}
