package policy

import (
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

// pseudoRules lists the rule ids the policies can produce, so they can be
// listed, documented and configured before any finding exists. An id comes
// from the rule's METADATA (custom.rule), or from a literal "rule" key in the
// object the rule adds to its set; a set rule without either produces
// <package>/<set>. Title and description come from the rule's METADATA,
// else from its package's.
func (ps *packages) pseudoRules(c *ast.Compiler) []*check.Rule {
	byID := map[string]*check.Rule{}
	as := c.GetAnnotationSet()
	for _, name := range ps.order {
		m := c.Modules[name] // compiled copy: the annotation set indexes its rules
		if m == nil {
			m = ps.byName[name]
		}
		if ps.skip[pkgPath(m)] {
			continue
		}
		o := output{pkg: pkgPath(m), builtin: ps.builtin[name]}
		var pkgAnn *ast.Annotations
		if as != nil {
			pkgAnn = as.GetPackageScope(m.Package)
		}
		for _, r := range m.Rules {
			set := setName(r)
			if set == "" {
				continue
			}
			o.set = set
			var ann *ast.Annotations
			if as != nil {
				if list := as.GetRuleScope(r); len(list) > 0 {
					ann = list[0]
				}
			}
			ids := declaredIDs(r, ann)
			if len(ids) == 0 {
				ids = []string{""}
			}
			for _, id := range ids {
				full := o.ruleID(id)
				rule := byID[full]
				if rule == nil {
					rule = &check.Rule{ID: full, Severity: setSeverity[set], Origin: check.OriginPolicy}
					byID[full] = rule
				} else if setSeverity[set] > rule.Severity {
					rule.Severity = setSeverity[set]
				}
				describe(rule, ann, pkgAnn, name, r)
			}
		}
	}
	out := make([]*check.Rule, 0, len(byID))
	for _, r := range byID {
		if r.Summary == "" {
			r.Summary = "Policy rule " + r.ID + "."
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// describe fills the summary and doc the first time an annotation offers
// them; rule-level annotations win over the package's.
func describe(rule *check.Rule, ann, pkgAnn *ast.Annotations, file string, r *ast.Rule) {
	for _, a := range []*ast.Annotations{ann, pkgAnn} {
		if a == nil {
			continue
		}
		if rule.Summary == "" {
			rule.Summary = firstLine(a.Title, a.Description)
		}
		if rule.Doc == "" && a.Description != "" {
			rule.Doc = strings.TrimSpace(a.Description)
		}
	}
	if rule.Doc == "" {
		rule.Doc = fmt.Sprintf("Defined by the Rego policy in %s:%d.", file, r.Location.Row)
	} else if !strings.Contains(rule.Doc, "Defined by the Rego policy") {
		rule.Doc += fmt.Sprintf("\n\nDefined by the Rego policy in %s:%d.", file, r.Location.Row)
	}
}

func firstLine(candidates ...string) string {
	for _, s := range candidates {
		if s = strings.TrimSpace(s); s != "" {
			line, _, _ := strings.Cut(s, "\n")
			return line
		}
	}
	return ""
}

// declaredIDs finds the rule ids one set rule can produce without running
// it: METADATA custom.rule (a string or a list), else a literal "rule" in
// the member, written in the head or assigned to the head's variable.
func declaredIDs(r *ast.Rule, ann *ast.Annotations) []string {
	if ann != nil {
		switch v := ann.Custom["rule"].(type) {
		case string:
			return []string{v}
		case []any:
			var ids []string
			for _, e := range v {
				if s, ok := e.(string); ok {
					ids = append(ids, s)
				}
			}
			return ids
		}
	}
	member := r.Head.Key
	if member == nil {
		member = r.Head.Value
	}
	if member == nil {
		return nil
	}
	if id, ok := literalRule(member); ok {
		return []string{id}
	}
	v, ok := member.Value.(ast.Var)
	if !ok {
		return nil
	}
	var ids []string
	for _, expr := range r.Body {
		if !expr.IsAssignment() && !expr.IsEquality() {
			continue
		}
		lhs, rhs := expr.Operand(0), expr.Operand(1)
		if lhs == nil || rhs == nil || !lhs.Equal(ast.VarTerm(string(v))) {
			continue
		}
		if id, ok := literalRule(rhs); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

func literalRule(t *ast.Term) (string, bool) {
	obj, ok := t.Value.(ast.Object)
	if !ok {
		return "", false
	}
	rt := obj.Get(ast.StringTerm("rule"))
	if rt == nil {
		return "", false
	}
	s, ok := rt.Value.(ast.String)
	return string(s), ok
}
