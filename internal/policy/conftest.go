package policy

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Conftest compatibility mode. A package written for conftest is evaluated
// the way conftest evaluates it: once per document (every object of the
// cluster, of any kind, as it is written: input.kind, input.metadata.name,
// input.spec...), reading the sets deny, violation and warn and their
// _name variants (deny_latest_tag). deny and violation members are errors,
// warn members warnings; a member is a message string, or an object whose
// msg is the message (other keys, such as details, are ignored). An
// exception rule exempts a document from the named rules, as in conftest:
// a member "latest_tag" of exception exempts deny_latest_tag. Findings are
// placed at the document, under the rule id <package>/<rule>
// (main/deny_latest_tag).

// conftestRule is one rule conftest reads in a package.
type conftestRule struct {
	name     string
	severity check.Severity
	rules    []*ast.Rule
}

// conftestPackage is one package run in compatibility mode, with its
// query prepared once.
type conftestPackage struct {
	pkg   string
	rules []conftestRule
	query rego.PreparedEvalQuery
}

// prepareConftest prepares one query per conftest package: every rule conftest
// reads, and the exceptions.
func prepareConftest(ctx context.Context, compiler *ast.Compiler, store storage.Store, caps *ast.Capabilities, ps *packages, styles map[string]*packageStyle) ([]*conftestPackage, error) {
	pkgs := slices.Sorted(maps.Keys(styles))
	var out []*conftestPackage
	for _, pkg := range pkgs {
		s := styles[pkg]
		rules := conftestRules(ps, s)
		if len(rules) == 0 {
			continue // helpers only, or tests
		}
		var b strings.Builder
		for i, r := range rules {
			fmt.Fprintf(&b, "__c%d = [__m | __m := %s[_]]; ", i, s.path.Append(ast.StringTerm(r.name)))
		}
		fmt.Fprintf(&b, "__exc = [__e | __e := %s[_]]", s.path.Append(ast.StringTerm("exception")))
		body, err := ast.ParseBodyWithOpts(b.String(), ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			return nil, fmt.Errorf("conftest query for %s: %w", pkg, err)
		}
		q, err := rego.New(rego.Compiler(compiler), rego.Store(store), rego.ParsedQuery(body), rego.Capabilities(caps)).PrepareForEval(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, &conftestPackage{pkg: pkg, rules: rules, query: q})
	}
	return out, nil
}

// evaluateConftest runs the conftest packages over every whole object of
// the cluster.
func (e *Engine) evaluateConftest(ctx context.Context, c *check.Context, builtinErrs *[]topdown.Error) ([]check.Finding, error) {
	if len(e.conftest) == 0 {
		return nil, nil
	}
	var out []check.Finding
	for _, o := range c.Cluster.Objects {
		if o.Content == nil || o.Partial {
			continue
		}
		input := toValue(o.Content)
		for _, p := range e.conftest {
			rs, err := p.query.Eval(ctx, rego.EvalParsedInput(input), rego.EvalBuiltinErrorList(builtinErrs))
			if err != nil {
				if stopped(ctx, err) {
					return nil, &conftestStopped{pkg: p, err: err}
				}
				return nil, err
			}
			if len(rs) == 0 {
				continue
			}
			fs, err := p.findings(rs[0].Bindings, o)
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
		}
	}
	return out, nil
}

// findings reads one document's results.
func (p *conftestPackage) findings(b rego.Vars, o *manifest.Object) ([]check.Finding, error) {
	exempt := map[string]bool{}
	if exc, ok := b["__exc"].([]any); ok {
		for _, m := range exc {
			for _, name := range stringsIn(m) {
				exempt[name] = true
			}
		}
	}
	var out []check.Finding
	for i, r := range p.rules {
		members, _ := b[fmt.Sprintf("__c%d", i)].([]any)
		if len(members) == 0 {
			continue
		}
		if _, suffix, ok := strings.Cut(r.name, "_"); ok && exempt[suffix] {
			continue
		}
		for _, m := range members {
			msg, err := conftestMessage(m)
			if err != nil {
				at := r.rules[0].Location
				return nil, fmt.Errorf("%s:%d:%d: data.%s.%s: %w", at.File, at.Row, at.Col, p.pkg, r.name, err)
			}
			out = append(out, check.Finding{
				Rule:     p.pkg + "/" + r.name,
				Severity: r.severity,
				Message:  msg,
				Position: o.Position(),
				Object:   check.ObjectRef{Kind: string(o.Kind), Name: o.Name},
			})
		}
	}
	return out, nil
}

// conftestMessage reads a member the way conftest does: a string, or an
// object with a msg string.
func conftestMessage(m any) (string, error) {
	switch v := m.(type) {
	case string:
		return v, nil
	case map[string]any:
		if s, ok := v["msg"].(string); ok && s != "" {
			return s, nil
		}
		return "", fmt.Errorf("member %s has no msg string (conftest members are strings or {\"msg\": …})", compact(v))
	}
	return "", fmt.Errorf("member %s is neither a string nor an object with msg", compact(m))
}

// stringsIn lists the strings of an exception member: a name, or a list
// or set of names.
func stringsIn(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// conftestPseudoRules declares the rule ids the conftest packages can
// report, for `mirrorlint rules`, SARIF and per-rule severities.
func conftestPseudoRules(c *ast.Compiler, pkgs []*conftestPackage) []*check.Rule {
	as := c.GetAnnotationSet()
	var out []*check.Rule
	for _, p := range pkgs {
		for _, r := range p.rules {
			rule := &check.Rule{ID: p.pkg + "/" + r.name, Severity: r.severity, Origin: check.OriginPolicy}
			var ann, pkgAnn *ast.Annotations
			if as != nil {
				if list := as.GetRuleScope(r.rules[0]); len(list) > 0 {
					ann = list[0]
				}
				if m := c.Modules[r.rules[0].Location.File]; m != nil {
					pkgAnn = as.GetPackageScope(m.Package)
				}
			}
			describe(rule, ann, pkgAnn, r.rules[0].Location.File, r.rules[0])
			if rule.Summary == "" {
				rule.Summary = fmt.Sprintf("conftest rule %s of package %s (compatibility mode: evaluated once per document).", r.name, p.pkg)
			}
			rule.Doc += "\n\nRun in conftest compatibility mode: evaluated once per document, with the document as input."
			out = append(out, rule)
		}
	}
	return out
}
