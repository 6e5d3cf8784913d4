package policy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Evaluate runs every policy once over one cluster and returns their
// findings, positioned on the objects' YAML. It implements check.Evaluator.
func (e *Engine) Evaluate(c *check.Context) ([]check.Finding, error) {
	if e == nil || len(e.outputs)+len(e.conftest) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), e.timeout)
	defer cancel()
	// The heap is watched from before the input document is built: it
	// is as large as the tree the load kept (within the run's own memory
	// budget), and under ulimit -v the two together did not fit.
	ctx, unwatch := processHeap.watch(ctx, e.memory)
	defer unwatch()
	var input ast.Value
	if len(e.outputs) > 0 {
		var ok bool
		if input, ok = buildInput(ctx, c, e.inputKinds(), e.inputFields()); !ok {
			f := e.stoppedFinding(ctx, e.userRules())
			f.Message = e.inputStopReason(ctx, len(c.Cluster.Objects))
			return []check.Finding{f}, nil
		}
	}
	ctx, limits := withLimitLog(ctx)
	var builtinErrs []topdown.Error
	var rs rego.ResultSet
	if len(e.outputs) > 0 {
		var err error
		if rs, err = e.query.Eval(ctx, rego.EvalParsedInput(input), rego.EvalBuiltinErrorList(&builtinErrs)); err != nil {
			if limits.halted() {
				return limits.findings(), nil
			}
			if stopped(ctx, err) {
				return append(limits.findings(), e.stoppedFinding(ctx, e.userRules())), nil
			}
			return nil, e.evalError(err)
		}
	}
	conftest, err := e.evaluateConftest(ctx, c, &builtinErrs)
	if err != nil {
		if limits.halted() {
			return limits.findings(), nil
		}
		var cs *conftestStopped
		if errors.As(err, &cs) {
			return append(limits.findings(), e.stoppedFinding(ctx, cs.pkg.rulesOf())), nil
		}
		return nil, e.evalError(err)
	}
	conftest = append(conftest, limits.findings()...)
	if builtinErrs = withoutLimitErrors(builtinErrs); e.strict && len(builtinErrs) > 0 {
		return nil, strictError(builtinErrs)
	}
	if len(rs) == 0 {
		return dedupe(conftest), nil
	}
	idx := newObjectIndex(c.Cluster.Objects)
	var out []check.Finding
	for _, o := range e.outputs {
		t, _ := rs[0].Bindings[o.variable].(*ast.Term)
		arr, _ := t.Value.(*ast.Array)
		if arr == nil {
			continue
		}
		for i := range arr.Len() {
			m, err := slimMember(arr.Elem(i).Value)
			if err != nil {
				return nil, o.at(nil, fmt.Errorf("data.%s.%s: %w", o.pkg, o.set, err))
			}
			f, err := o.finding(m, idx)
			if err != nil {
				return nil, o.at(m, err)
			}
			out = append(out, f)
		}
	}
	return dedupe(append(out, conftest...)), nil
}

// evalError words an evaluation that failed with OPA's error (conftest
// mode's malformed members come positioned already); one the run stopped
// is a finding instead (stoppedFinding).
func (e *Engine) evalError(err error) error {
	return fmt.Errorf("policy evaluation: %w", err)
}

// at prefixes a malformed-member error with the file:line:col of the rule
// that built the member, which is what the policy author has to fix. OPA
// does not say which rule body produced a set member, so the rules are
// narrowed to those whose head could build m (an object head with other
// keys could not); when several remain, the others are listed after the
// error.
func (o output) at(m any, err error) error {
	var cands []*ast.Rule
	for _, r := range o.rules {
		if m == nil || couldBuild(r, m) {
			cands = append(cands, r)
		}
	}
	if len(cands) == 0 {
		cands = o.rules
	}
	if len(cands) == 0 || cands[0].Location == nil {
		return err
	}
	msg := ruleLocation(cands[0]) + ": " + err.Error()
	if len(cands) > 1 {
		var others []string
		for _, r := range cands[1:] {
			if r.Location != nil {
				others = append(others, ruleLocation(r))
			}
		}
		if len(others) > 0 {
			msg += " (or the rule at " + strings.Join(others, ", ") + ")"
		}
	}
	return &memberError{msg: msg, err: err}
}

// memberError keeps the unwrapped error reachable for errors.Is/As.
type memberError struct {
	msg string
	err error
}

func (e *memberError) Error() string { return e.msg }
func (e *memberError) Unwrap() error { return e.err }

func ruleLocation(r *ast.Rule) string {
	return fmt.Sprintf("%s:%d:%d", r.Location.File, r.Location.Row, r.Location.Col)
}

// couldBuild reports whether rule r's head may produce member m: a head
// that is a literal object with constant keys builds only members with
// exactly those keys, a constant string only that string; anything else (a
// variable, a comprehension, a complete rule) may build any member.
func couldBuild(r *ast.Rule, m any) bool {
	t := r.Head.Key
	if t == nil {
		return true
	}
	switch v := t.Value.(type) {
	case ast.Object:
		mm, ok := m.(map[string]any)
		if !ok {
			return false
		}
		keys := map[string]bool{}
		constant := true
		v.Foreach(func(k, _ *ast.Term) {
			if s, ok := k.Value.(ast.String); ok {
				keys[string(s)] = true
			} else {
				constant = false
			}
		})
		if !constant {
			return true
		}
		if len(keys) != len(mm) {
			return false
		}
		for k := range mm {
			if !keys[k] {
				return false
			}
		}
		return true
	case ast.String:
		s, ok := m.(string)
		return ok && s == string(v)
	}
	return true
}

// finding turns one member of a deny/warn/info set into a Finding.
func (o output) finding(m any, idx objectIndex) (check.Finding, error) {
	f := check.Finding{Severity: setSeverity[o.set]}
	switch v := m.(type) {
	case string:
		f.Rule, f.Message = o.ruleID(""), v
		return f, nil
	case map[string]any:
		where := fmt.Sprintf("data.%s.%s", o.pkg, o.set)
		for k := range v {
			if !memberKeys[k] {
				return f, fmt.Errorf("%s: member has unknown key %q (a member is {rule, msg, object, path, related} or a string)", where, k)
			}
		}
		rule, ok := optString(v, "rule")
		if !ok {
			return f, fmt.Errorf("%s: member's rule must be a string", where)
		}
		msg, ok := optString(v, "msg")
		if !ok || msg == "" {
			return f, fmt.Errorf("%s: member needs a msg string", where)
		}
		f.Rule, f.Message = o.ruleID(rule), msg
		loc, err := idx.locate(v["object"], v["path"])
		if err != nil {
			return f, fmt.Errorf("%s (rule %s): %w", where, f.Rule, err)
		}
		f.Position, f.Object, f.Path = loc.Position, loc.Object, loc.Path
		if rel, ok := v["related"]; ok {
			list, ok := rel.([]any)
			if !ok {
				return f, fmt.Errorf("%s (rule %s): related must be a list of {object, path}", where, f.Rule)
			}
			for _, r := range list {
				rm, ok := r.(map[string]any)
				if !ok {
					return f, fmt.Errorf("%s (rule %s): related must be a list of {object, path}", where, f.Rule)
				}
				loc, err := idx.locate(rm["object"], rm["path"])
				if err != nil {
					return f, fmt.Errorf("%s (rule %s): related: %w", where, f.Rule, err)
				}
				f.Related = append(f.Related, loc)
			}
		}
		return f, nil
	}
	return f, fmt.Errorf("data.%s.%s: member %s is neither an object nor a string", o.pkg, o.set, compact(m))
}

// slimMember converts a set member to Go, but of an object reference
// (under "object" or in "related") only the keys that identify it: a
// policy may pass a whole input object, content and all.
func slimMember(v ast.Value) (any, error) {
	obj, ok := v.(ast.Object)
	if !ok {
		return ast.JSON(v)
	}
	out := make(map[string]any, obj.Len())
	err := obj.Iter(func(k, val *ast.Term) error {
		key, ok := k.Value.(ast.String)
		if !ok {
			return fmt.Errorf("member has a non-string key %s", k)
		}
		var err error
		switch string(key) {
		case "object":
			out["object"], err = slimObject(val.Value)
		case "related":
			out["related"], err = slimRelated(val.Value)
		default:
			out[string(key)], err = ast.JSON(val.Value)
		}
		return err
	})
	return out, err
}

var objectKeys = []string{"kind", "name", "file", "doc"}

func slimObject(v ast.Value) (any, error) {
	obj, ok := v.(ast.Object)
	if !ok {
		return ast.JSON(v)
	}
	out := map[string]any{}
	for _, k := range objectKeys {
		if t := obj.Get(ast.StringTerm(k)); t != nil {
			x, err := ast.JSON(t.Value)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
	}
	return out, nil
}

func slimRelated(v ast.Value) (any, error) {
	arr, ok := v.(*ast.Array)
	if !ok {
		return ast.JSON(v)
	}
	out := make([]any, 0, arr.Len())
	for i := range arr.Len() {
		e, ok := arr.Elem(i).Value.(ast.Object)
		if !ok {
			x, err := ast.JSON(arr.Elem(i).Value)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
			continue
		}
		m := map[string]any{}
		err := e.Iter(func(k, val *ast.Term) error {
			key, ok := k.Value.(ast.String)
			if !ok {
				return fmt.Errorf("related has a non-string key %s", k)
			}
			var err error
			if key == "object" {
				m["object"], err = slimObject(val.Value)
			} else {
				m[string(key)], err = ast.JSON(val.Value)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

var memberKeys = map[string]bool{"rule": true, "msg": true, "object": true, "path": true, "related": true}

func optString(m map[string]any, key string) (string, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return "", true
	}
	s, ok := v.(string)
	return s, ok
}

// objectIndex finds the cluster's objects by kind and name.
type objectIndex map[string][]*manifest.Object

func newObjectIndex(objs []*manifest.Object) objectIndex {
	idx := objectIndex{}
	for _, o := range objs {
		k := string(o.Kind) + "\x00" + o.Name
		idx[k] = append(idx[k], o)
	}
	return idx
}

// locate resolves a member's object ({kind, name} or an input object, whose
// file and doc narrow the match when several objects share kind and name)
// and path (dotted string or list of keys and indices) to a position.
func (idx objectIndex) locate(obj, path any) (check.Location, error) {
	var loc check.Location
	var p manifest.Path
	switch v := path.(type) {
	case nil:
	case string:
		p = manifest.ParsePath(v)
	case []any:
		for _, e := range v {
			switch x := e.(type) {
			case string:
				p = append(p, x)
			case json.Number:
				n, err := x.Int64()
				if err != nil {
					return loc, fmt.Errorf("path element %s is not an index", x)
				}
				p = append(p, int(n))
			default:
				return loc, fmt.Errorf("path element %s is neither a key nor an index", compact(e))
			}
		}
	default:
		return loc, fmt.Errorf("path must be a dotted string or a list, not %s", compact(path))
	}
	loc.Path = p.String()
	if obj == nil {
		return loc, nil
	}
	om, ok := obj.(map[string]any)
	if !ok {
		return loc, fmt.Errorf("object must be {kind, name} or an input object, not %s", compact(obj))
	}
	kind, _ := om["kind"].(string)
	name, _ := om["name"].(string)
	if kind == "" {
		return loc, fmt.Errorf("object needs a kind and a name")
	}
	loc.Object = check.ObjectRef{Kind: kind, Name: name}
	o := idx.pick(kind, name, om)
	if o == nil {
		return loc, nil // not in this cluster: keep the reference, no position
	}
	loc.Position = o.Locate(p)
	return loc, nil
}

func (idx objectIndex) pick(kind, name string, om map[string]any) *manifest.Object {
	cands := idx[kind+"\x00"+name]
	file, hasFile := om["file"].(string)
	doc, hasDoc := om["doc"].(json.Number)
	for _, o := range cands {
		if hasFile && o.File != file {
			continue
		}
		if hasDoc && string(doc) != fmt.Sprint(o.Doc) {
			continue
		}
		return o
	}
	if len(cands) > 0 {
		return cands[0]
	}
	return nil
}

// dedupe drops exact repeats, which arise when two rule bodies of one set
// produce the same member with different intermediate values.
func dedupe(fs []check.Finding) []check.Finding {
	seen := map[string]bool{}
	out := fs[:0]
	for _, f := range fs {
		k := fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%d\x00%s", f.Rule, f.Message, f.File, f.Line, f.Column, f.Path)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	return out
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return strings.TrimSpace(s)
}
