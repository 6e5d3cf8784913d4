package policy

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/suggest"
)

// A package is written either for mirrorlint (evaluated once per cluster
// over input.objects, reporting through deny, warn and info) or for
// conftest (evaluated once per document, reading input.kind and friends,
// reporting through deny, warn, violation and their _name variants).
// Evaluating a conftest policy the mirrorlint way gives nothing, without a
// word, so every package of the team's own is classified when it is
// loaded: conftest packages run in the compatibility mode (conftest.go),
// and a package that reads an input mirrorlint does not provide is refused
// with the form mirrorlint expects.

// inputFields are the top-level keys of mirrorlint's input document.
var inputFields = []string{"objects", "rendered", "settings", "cluster"}

// documentFields are top-level keys of a Kubernetes object: reading one
// from input is reading one document, conftest's input.
var documentFields = map[string]bool{
	"apiVersion": true, "kind": true, "metadata": true, "spec": true, "status": true,
	"data": true, "stringData": true, "binaryData": true, "type": true, "items": true,
	"rules": true, "subjects": true, "roleRef": true, "webhooks": true, "secrets": true,
	"imagePullSecrets": true, "parameters": true,
}

// conftestRuleName matches the rules conftest reads: deny, warn and
// violation, each alone or with a _suffix naming it.
var conftestRuleName = regexp.MustCompile(`^(deny|warn|violation)(_[A-Za-z0-9_]+)?$`)

// packageStyle is what one package reads and defines.
type packageStyle struct {
	pkg       string
	path      ast.Ref
	modules   []string // module names, in load order
	cluster   bool     // reads objects, rendered, settings or cluster
	document  []string // Kubernetes object fields it reads (input.kind...)
	unknown   []string // other top-level input fields it reads
	combined  bool     // reads input[_] (conftest --combine)
	conftest  bool     // defines deny_x, warn_x or violation rules
	firstRead *ast.Location
}

// conftestMode reports whether the package is run the conftest way.
func (s *packageStyle) conftestMode() bool {
	return !s.cluster && (s.conftest || len(s.document) > 0 || s.pkg == "main")
}

// classify sorts the team's packages: those in conftest style, and an
// error for the packages that would evaluate to nothing in either mode.
func classify(ps *packages) (map[string]*packageStyle, error) {
	styles := map[string]*packageStyle{}
	var order []string
	for _, name := range ps.order {
		if ps.builtin[name] {
			continue
		}
		m := ps.byName[name]
		pkg := pkgPath(m)
		s := styles[pkg]
		if s == nil {
			s = &packageStyle{pkg: pkg, path: m.Package.Path}
			styles[pkg] = s
			order = append(order, pkg)
		}
		s.modules = append(s.modules, name)
		for _, r := range m.Rules {
			// deny and warn alone are mirrorlint's sets too; the named
			// variants and violation are conftest's only.
			if len(r.Head.Args) == 0 && conftestRuleName.MatchString(ruleName(r)) && setName(r) == "" {
				s.conftest = true
			}
		}
		ast.WalkRefs(m, func(ref ast.Ref) bool {
			if !ref[0].Equal(ast.InputRootDocument) || len(ref) < 2 {
				return false
			}
			key, ok := ref[1].Value.(ast.String)
			switch {
			case !ok:
				s.combined = true
			case slices.Contains(inputFields, string(key)):
				s.cluster = true
			case documentFields[string(key)]:
				s.document = appendOnce(s.document, string(key))
			default:
				s.unknown = appendOnce(s.unknown, string(key))
			}
			if s.firstRead == nil {
				s.firstRead = ref[0].Location
			}
			return false
		})
	}
	var errs ast.Errors
	conftest := map[string]*packageStyle{}
	for _, pkg := range order {
		s := styles[pkg]
		loc := ps.byName[s.modules[0]].Package.Location
		if s.firstRead != nil {
			loc = s.firstRead
		}
		switch {
		case s.combined && !s.cluster:
			errs = append(errs, ast.NewError(ast.CompileErr, loc,
				"package %s reads input as a list of documents (conftest --combine), which mirrorlint does not provide: %s", pkg, mirrorlintForm))
		case s.cluster && len(s.document) > 0:
			errs = append(errs, ast.NewError(ast.CompileErr, loc,
				"package %s reads both input.%s (one document, as conftest gives it) and mirrorlint's input.objects/rendered/settings/cluster: a package is evaluated one way or the other; %s",
				pkg, s.document[0], mirrorlintForm))
		case s.conftestMode():
			conftest[pkg] = s
		case len(s.unknown) > 0:
			field := s.unknown[0]
			hint := ""
			if c := suggest.Closest(field, inputFields, 2); c != "" {
				hint = fmt.Sprintf(" (did you mean input.%s?)", c)
			}
			errs = append(errs, ast.NewError(ast.CompileErr, loc,
				"package %s reads input.%s, which mirrorlint's input does not have%s: every rule reading it would be undefined; %s", pkg, field, hint, mirrorlintForm))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return conftest, nil
}

// mirrorlintForm is the form a refused package is shown, in one message.
const mirrorlintForm = `mirrorlint evaluates a package once per cluster with input.objects (every object: kind, name, namespace, known, file, line, spec, content…), input.rendered, input.settings and input.cluster, and reads its sets deny, warn and info, e.g. ` +
	`deny contains {"msg": sprintf("%s pulls from docker.io", [o.name]), "object": o, "path": "spec.image"} if { some o in input.objects; o.kind == "CatalogSource"; startswith(o.spec.image, "docker.io/") }; ` +
	`a conftest policy (package main, deny/warn/violation rules reading input.kind) runs in conftest compatibility mode, once per document`

// ruleName is the name a rule defines ("deny", "deny_latest").
func ruleName(r *ast.Rule) string {
	if name := string(r.Head.Name); name != "" {
		return name
	}
	if ref := r.Head.Ref(); len(ref) > 0 {
		if v, ok := ref[0].Value.(ast.Var); ok {
			return string(v)
		}
	}
	return ""
}

func appendOnce(l []string, s string) []string {
	if slices.Contains(l, s) {
		return l
	}
	l = append(l, s)
	sort.Strings(l)
	return l
}

// conftestRules lists the conftest rules a package defines, by name, with
// the severity conftest gives them: deny and violation fail, warn warns.
func conftestRules(ps *packages, s *packageStyle) []conftestRule {
	byName := map[string]*conftestRule{}
	var names []string
	for _, name := range s.modules {
		for _, r := range ps.byName[name].Rules {
			n := ruleName(r)
			if len(r.Head.Args) > 0 || len(r.Head.Ref()) != 1 || !conftestRuleName.MatchString(n) {
				continue
			}
			cr := byName[n]
			if cr == nil {
				cr = &conftestRule{name: n, severity: severityOf(n)}
				byName[n] = cr
				names = append(names, n)
			}
			cr.rules = append(cr.rules, r)
		}
	}
	sort.Strings(names)
	out := make([]conftestRule, len(names))
	for i, n := range names {
		out[i] = *byName[n]
	}
	return out
}

func severityOf(name string) check.Severity {
	if strings.HasPrefix(name, "warn") {
		return check.Warning
	}
	return check.Error
}

// conftestLike reports a module written for conftest: package main, a
// conftest-only rule name, or a read of one document's fields; and no read
// of mirrorlint's input. It decides whether a module that is not Rego v1
// may be read as Rego v0, the syntax older conftest policies use.
func conftestLike(m *ast.Module) bool {
	ps := &packages{byName: map[string]*ast.Module{"m": m}, order: []string{"m"}, builtin: map[string]bool{}}
	styles, err := classify(ps)
	return err == nil && styles[pkgPath(m)] != nil
}
