package policy

import (
	"math"
	"math/big"
	"net"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/builtins"
)

// predictors are the builtins whose result can be far larger than their
// operands, each with how to work out that size cheaply. The rest build at
// most a small multiple of what they are given, which the other limits
// (file sizes, these caps) already bound.
var predictors = map[string]predictor{
	"numbers.range":                    predictRange,
	"numbers.range_step":               predictRangeStep,
	"net.cidr_expand":                  predictCIDRExpand,
	"bits.lsh":                         predictShiftLeft,
	"split":                            predictSplit,
	"strings.split_n":                  predictSplitN,
	"indexof_n":                        predictIndexOfN,
	"array.flatten":                    predictFlatten,
	"regex.split":                      predictRegexSplit,
	"regex.find_n":                     predictRegexFindN,
	"regex.find_all_string_submatch_n": predictRegexFindN,
	"concat":                           predictConcat,
	"sprintf":                          predictSprintf,
	"replace":                          predictReplace,
	"strings.replace_n":                predictReplaceN,
	"regex.replace":                    predictRegexReplace,
	"json.marshal":                     predictJSONMarshal,
	"json.marshal_with_options":        predictJSONMarshalWithOptions,
	"yaml.marshal":                     predictYAMLMarshal,
}

var maxInt64 = big.NewInt(math.MaxInt64)

func clamp(n *big.Int) int64 {
	if n.Cmp(maxInt64) > 0 {
		return math.MaxInt64
	}
	return n.Int64()
}

// mulSat is a*b for non-negative a and b, saturating instead of wrapping.
func mulSat(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func rangeCount(x, y, step *big.Int) int64 {
	n := new(big.Int).Sub(y, x)
	n.Abs(n)
	n.Quo(n, step)
	return clamp(n.Add(n, big.NewInt(1)))
}

func predictRange(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	x, err1 := builtins.BigIntOperand(ops[0].Value, 1)
	y, err2 := builtins.BigIntOperand(ops[1].Value, 2)
	if err1 != nil || err2 != nil {
		return 0, unitElements, false
	}
	return rangeCount(x, y, big.NewInt(1)), unitElements, true
}

func predictRangeStep(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	x, err1 := builtins.BigIntOperand(ops[0].Value, 1)
	y, err2 := builtins.BigIntOperand(ops[1].Value, 2)
	step, err3 := builtins.BigIntOperand(ops[2].Value, 3)
	if err1 != nil || err2 != nil || err3 != nil || step.Sign() <= 0 {
		return 0, unitElements, false
	}
	return rangeCount(x, y, step), unitElements, true
}

func predictCIDRExpand(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	s, err := builtins.StringOperand(ops[0].Value, 1)
	if err != nil {
		return 0, unitElements, false
	}
	_, ipNet, err := net.ParseCIDR(string(s))
	if err != nil {
		return 0, unitElements, false
	}
	ones, size := ipNet.Mask.Size()
	if size-ones >= 62 {
		return math.MaxInt64, unitElements, true
	}
	return 1 << (size - ones), unitElements, true
}

func predictShiftLeft(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	x, err1 := builtins.BigIntOperand(ops[0].Value, 1)
	shift, err2 := builtins.BigIntOperand(ops[1].Value, 2)
	if err1 != nil || err2 != nil || shift.Sign() < 0 {
		return 0, unitBits, false
	}
	return addSat(int64(x.BitLen()), clamp(shift)), unitBits, true
}

// pieces is how many strings splitting s at sep gives.
func pieces(s, sep string) int64 {
	if sep == "" {
		return int64(utf8.RuneCountInString(s))
	}
	return int64(strings.Count(s, sep)) + 1
}

func predictSplit(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	s, err1 := builtins.StringOperand(ops[0].Value, 1)
	sep, err2 := builtins.StringOperand(ops[1].Value, 2)
	if err1 != nil || err2 != nil {
		return 0, unitElements, false
	}
	return pieces(string(s), string(sep)), unitElements, true
}

func predictSplitN(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	s, err1 := builtins.StringOperand(ops[0].Value, 1)
	sep, err2 := builtins.StringOperand(ops[1].Value, 2)
	n, err3 := builtins.IntOperand(ops[2].Value, 3)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, unitElements, false
	}
	count := pieces(string(s), string(sep))
	if n >= 0 && int64(n) < count {
		count = int64(n)
	}
	return count, unitElements, true
}

// predictIndexOfN counts occurrences, overlapping ones included (an upper
// bound whichever way they are counted), only when the string is long
// enough for the count to matter.
func predictIndexOfN(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	s, err1 := builtins.StringOperand(ops[0].Value, 1)
	sub, err2 := builtins.StringOperand(ops[1].Value, 2)
	if err1 != nil || err2 != nil {
		return 0, unitElements, false
	}
	if int64(len(s))+1 <= MaxBuiltinElements || sub == "" {
		return int64(len(s)) + 1, unitElements, true
	}
	var n int64
	for i := 0; i <= len(s); {
		j := strings.Index(string(s[i:]), string(sub))
		if j < 0 {
			break
		}
		n++
		if n > MaxBuiltinElements {
			break
		}
		i += j + 1
	}
	return n, unitElements, true
}

func predictFlatten(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	arr, ok := ops[0].Value.(*ast.Array)
	if !ok {
		return 0, unitElements, false
	}
	var n int64
	var count func(a *ast.Array) bool
	count = func(a *ast.Array) bool {
		for i := range a.Len() {
			if inner, ok := a.Elem(i).Value.(*ast.Array); ok {
				if !count(inner) {
					return false
				}
				continue
			}
			if n++; n > MaxBuiltinElements {
				return false
			}
		}
		return true
	}
	count(arr)
	return n, unitElements, true
}

// regexMatches counts the matches of pattern in s, up to limit+1; ok false
// when the pattern does not compile (the builtin reports that itself).
func regexMatches(pattern, s string, limit int64) (int64, bool) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return 0, false
	}
	if limit >= math.MaxInt32 {
		limit = math.MaxInt32 - 1
	}
	return int64(len(re.FindAllStringIndex(s, int(limit)+1))), true
}

func predictRegexSplit(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	pattern, err1 := builtins.StringOperand(ops[0].Value, 1)
	s, err2 := builtins.StringOperand(ops[1].Value, 2)
	if err1 != nil || err2 != nil {
		return 0, unitElements, false
	}
	if int64(len(s))+2 <= MaxBuiltinElements {
		return int64(len(s)) + 2, unitElements, true
	}
	n, ok := regexMatches(string(pattern), string(s), MaxBuiltinElements)
	return n + 1, unitElements, ok
}

func predictRegexFindN(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	pattern, err1 := builtins.StringOperand(ops[0].Value, 1)
	s, err2 := builtins.StringOperand(ops[1].Value, 2)
	n, err3 := builtins.IntOperand(ops[2].Value, 3)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, unitElements, false
	}
	if n >= 0 && int64(n) <= MaxBuiltinElements || int64(len(s))+1 <= MaxBuiltinElements {
		return 0, unitElements, true
	}
	count, ok := regexMatches(string(pattern), string(s), MaxBuiltinElements)
	return count, unitElements, ok
}

func predictConcat(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	sep, err := builtins.StringOperand(ops[0].Value, 1)
	if err != nil {
		return 0, unitBytes, false
	}
	var size, n int64
	ok := true
	each := func(t *ast.Term) bool {
		s, isString := t.Value.(ast.String)
		if !isString {
			ok = false
			return false
		}
		if n > 0 {
			size = addSat(size, int64(len(sep)))
		}
		n++
		size = addSat(size, int64(len(s)))
		return size <= MaxBuiltinBytes
	}
	switch v := ops[1].Value.(type) {
	case *ast.Array:
		for i := 0; i < v.Len() && each(v.Elem(i)); i++ {
		}
	case ast.Set:
		_ = v.Iter(func(t *ast.Term) error {
			if !each(t) {
				return errStop
			}
			return nil
		})
	default:
		return 0, unitBytes, false
	}
	return size, unitBytes, ok
}

// predictSprintf adds the format, the widths and precisions its verbs ask
// for (Go caps each at 10⁶) and the printed arguments; with explicit
// argument indexes ("%[1]s%[1]s") an argument may be printed once per
// verb.
func predictSprintf(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	format, err := builtins.StringOperand(ops[0].Value, 1)
	if err != nil {
		return 0, unitBytes, false
	}
	args, ok := ops[1].Value.(*ast.Array)
	if !ok {
		return 0, unitBytes, false
	}
	var sum, largest, largestInt int64
	for i := range args.Len() {
		n := printedSize(args.Elem(i).Value, nil)
		sum = addSat(sum, n)
		largest = max(largest, n)
		if x, ok := args.Elem(i).Value.(ast.Number); ok {
			if v, ok := x.Int64(); ok {
				largestInt = max(largestInt, min(abs64(v), fmtMaxWidth))
			}
		}
	}
	verbs, pads, indexed := scanFormat(string(format), largestInt)
	size := addSat(int64(len(format)), pads)
	if indexed {
		return addSat(size, mulSat(int64(verbs), largest)), unitBytes, true
	}
	return addSat(size, sum), unitBytes, true
}

// fmtMaxWidth is the largest width or precision Go's fmt honours.
const fmtMaxWidth = 1e6

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// scanFormat counts a format's verbs, adds up their widths and precisions
// (a '*' one counts as the largest integer argument) and reports whether
// it uses explicit argument indexes.
func scanFormat(f string, star int64) (verbs int, pads int64, indexed bool) {
	num := func(i int) (int64, int) {
		var n int64
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			if n < fmtMaxWidth {
				n = n*10 + int64(f[i]-'0')
			}
			i++
		}
		return min(n, fmtMaxWidth), i
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		for i < len(f) && strings.IndexByte("+-# 0", f[i]) >= 0 {
			i++
		}
		for part := 0; part < 2 && i < len(f); part++ {
			if part == 1 {
				if f[i] != '.' {
					break
				}
				i++
			}
			if i < len(f) && f[i] == '[' {
				indexed = true
				for i < len(f) && f[i] != ']' {
					i++
				}
				i++
			}
			if i < len(f) && f[i] == '*' {
				pads = addSat(pads, star)
				i++
				continue
			}
			var n int64
			n, i = num(i)
			pads = addSat(pads, n)
		}
		if i < len(f) && f[i] == '[' {
			indexed = true
			for i < len(f) && f[i] != ']' {
				i++
			}
			i++
		}
		verbs++
	}
	return verbs, pads, indexed
}

func predictReplace(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	s, err1 := builtins.StringOperand(ops[0].Value, 1)
	old, err2 := builtins.StringOperand(ops[1].Value, 2)
	repl, err3 := builtins.StringOperand(ops[2].Value, 3)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, unitBytes, false
	}
	n := occurrences(string(s), string(old))
	if len(repl) <= len(old) {
		return int64(len(s)), unitBytes, true
	}
	return addSat(int64(len(s)), mulSat(n, int64(len(repl)-len(old)))), unitBytes, true
}

// occurrences is how many places strings.Replacer may replace old in s:
// between every two characters when old is empty.
func occurrences(s, old string) int64 {
	if old == "" {
		return int64(utf8.RuneCountInString(s)) + 1
	}
	return int64(strings.Count(s, old))
}

func predictReplaceN(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	patterns, ok := ops[0].Value.(ast.Object)
	if !ok {
		return 0, unitBytes, false
	}
	s, err := builtins.StringOperand(ops[1].Value, 2)
	if err != nil {
		return 0, unitBytes, false
	}
	size := int64(len(s))
	valid := true
	patterns.Foreach(func(k, v *ast.Term) {
		old, ok1 := k.Value.(ast.String)
		repl, ok2 := v.Value.(ast.String)
		if !ok1 || !ok2 {
			valid = false
			return
		}
		size = addSat(size, mulSat(occurrences(string(s), string(old)), int64(len(repl))))
	})
	return size, unitBytes, valid
}

// predictRegexReplace bounds the result by the number of matches (counted
// only when the bound without counting is over the limit) times the
// replacement, whose $1-style references each expand to at most the
// whole input.
func predictRegexReplace(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	s, err1 := builtins.StringOperand(ops[0].Value, 1)
	pattern, err2 := builtins.StringOperand(ops[1].Value, 2)
	value, err3 := builtins.StringOperand(ops[2].Value, 3)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, unitBytes, false
	}
	perMatch := addSat(int64(len(value)), mulSat(int64(strings.Count(string(value), "$")), int64(len(s))))
	if perMatch == 0 {
		return int64(len(s)), unitBytes, true
	}
	bound := addSat(int64(len(s)), mulSat(int64(len(s))+1, perMatch))
	if bound <= MaxBuiltinBytes {
		return bound, unitBytes, true
	}
	allowed := max(0, (MaxBuiltinBytes-int64(len(s)))/perMatch)
	n, ok := regexMatches(string(pattern), string(s), allowed)
	return addSat(int64(len(s)), mulSat(n, perMatch)), unitBytes, ok
}

func predictJSONMarshal(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	return printedSize(ops[0].Value, nil), unitBytes, true
}

// predictJSONMarshalWithOptions counts every value on a line of its own,
// indented to its depth, as soon as an option is given (an upper bound of
// what pretty-printing adds).
func predictJSONMarshalWithOptions(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	opts, ok := ops[1].Value.(ast.Object)
	if !ok {
		return 0, unitBytes, false
	}
	indent, prefix := int64(1), int64(0)
	pretty := false
	opts.Foreach(func(k, v *ast.Term) {
		pretty = true
		s, ok := v.Value.(ast.String)
		switch {
		case !ok:
		case k.Value.Compare(ast.String("indent")) == 0:
			indent = int64(len(s))
		case k.Value.Compare(ast.String("prefix")) == 0:
			prefix = int64(len(s))
		}
	})
	if !pretty {
		return printedSize(ops[0].Value, nil), unitBytes, true
	}
	return printedSize(ops[0].Value, func(depth int) int64 {
		return addSat(addSat(prefix, 1), mulSat(int64(depth), indent))
	}), unitBytes, true
}

func predictYAMLMarshal(_ topdown.BuiltinContext, ops []*ast.Term) (int64, limitUnit, bool) {
	return printedSize(ops[0].Value, func(depth int) int64 { return 3 + 2*int64(depth) }), unitBytes, true
}
