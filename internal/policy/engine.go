package policy

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/policies"
)

// reserved is the package prefix of the built-in library and of its
// configuration data; user policies may not declare packages beneath it.
var reserved = ast.MustParseRef("data.mirrorlint")

// setSeverity maps the three rule sets a package may define to severities.
var setSeverity = map[string]check.Severity{"deny": check.Error, "warn": check.Warning, "info": check.Info}

// setOrder fixes the order the sets are queried and documented in.
var setOrder = []string{"deny", "warn", "info"}

// Engine holds the compiled policies and the prepared query; it is safe for
// concurrent Evaluate calls (one per cluster).
type Engine struct {
	// anyKind is set when user policies are loaded: they may read objects
	// of any kind, so the load keeps every object (ReadsAnyKind).
	anyKind bool
	query   rego.PreparedEvalQuery
	outputs []output // one per (package, set) the query reads, by binding
	rules   []*check.Rule
	known   map[string]bool
	timeout time.Duration
	memory  int64 // bytes the heap may grow by during one evaluation
	strict  bool
	// conftest are the packages run in conftest compatibility mode.
	conftest []*conftestPackage
}

// output is one set of one package, bound to a query variable.
type output struct {
	variable string
	pkg      string // package path after "data.", e.g. "acme.mirrors"
	ref      ast.Ref
	set      string // deny, warn or info
	builtin  bool   // ids are used as written, not namespaced
	// rules are the rules defining the set, in source order: a member the
	// engine cannot read is reported at the rule that built it.
	rules []*ast.Rule
}

// ruleID is the id a member with rule r gets: the built-in library's ids
// are mirrorlint's own, a user package's are namespaced by its path.
func (o output) ruleID(r string) string {
	if r == "" {
		r = o.set
	}
	if o.builtin || strings.HasPrefix(r, o.pkg+"/") {
		return r
	}
	return o.pkg + "/" + r
}

// Load parses and compiles the policies once, with the hermetic
// capabilities, and prepares the query Evaluate runs. A policy that does not
// parse or compile gives a *CompileError.
func Load(opts Options) (*Engine, error) {
	srcs, err := collect(opts.Dirs, opts.Builtin, false)
	if err != nil {
		return nil, err
	}
	caps := capabilities(opts.AllowNet)
	modules, err := parse(srcs, caps, opts.AllowNet)
	if err != nil {
		return nil, err
	}
	data, err := loadData(opts.DataFiles)
	if err != nil {
		return nil, err
	}
	styles, err := classify(modules)
	if err != nil {
		return nil, compileError(err, opts.AllowNet)
	}
	modules.skip = map[string]bool{}
	for pkg := range styles {
		modules.skip[pkg] = true // run in conftest compatibility mode instead
	}
	compiler := newCompiler(caps)
	if compiler.Compile(modules.byName); compiler.Failed() {
		return nil, compileError(compiler.Errors, opts.AllowNet)
	}

	e := &Engine{timeout: opts.timeout(), memory: opts.memory(), known: map[string]bool{}, strict: opts.Strict}
	for _, name := range modules.order {
		if !modules.builtin[name] {
			e.anyKind = true
		}
	}
	store := inmem.NewFromObject(data)
	ctx, cancel := context.WithTimeout(context.Background(), e.timeout)
	defer cancel()
	if e.conftest, err = prepareConftest(ctx, compiler, store, caps, modules, styles); err != nil {
		return nil, fmt.Errorf("prepare conftest policies: %w", compileError(err, opts.AllowNet))
	}
	e.outputs = modules.outputs()
	e.rules = append(modules.pseudoRules(compiler), conftestPseudoRules(compiler, e.conftest)...)
	for _, r := range e.rules {
		e.known[r.ID] = true
	}
	if len(e.outputs) == 0 {
		return e, nil
	}

	body, err := queryBody(e.outputs)
	if err != nil {
		return nil, fmt.Errorf("policy query: %w", err)
	}
	e.query, err = rego.New(
		rego.Compiler(compiler),
		rego.Store(store),
		rego.ParsedQuery(body),
		rego.Capabilities(caps),
		// Keep results as OPA terms: members often carry whole input
		// objects, and converting their content back to Go is most of the
		// cost of a run. slim converts only what a finding needs.
		rego.GenerateJSON(func(t *ast.Term, _ *rego.EvalContext) (any, error) { return t, nil }),
	).PrepareForEval(ctx)
	if err != nil {
		return nil, fmt.Errorf("prepare policy query: %w", compileError(err, opts.AllowNet))
	}
	return e, nil
}

func newCompiler(caps *ast.Capabilities) *ast.Compiler {
	return ast.NewCompiler().
		WithCapabilities(caps).
		WithDefaultRegoVersion(ast.RegoV1)
}

// queryBody reads every output through a comprehension, so a set a package
// leaves undefined (a complete rule whose body failed) reads as empty
// instead of making the whole query undefined:
//
//	__out0 = [__m | __m := data.acme.mirrors.deny[_]]
func queryBody(outs []output) (ast.Body, error) {
	var b strings.Builder
	for i, o := range outs {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s = [__m | __m := %s[_]]", o.variable, o.ref.Append(ast.StringTerm(o.set)))
	}
	return ast.ParseBodyWithOpts(b.String(), ast.ParserOptions{RegoVersion: ast.RegoV1})
}

// Rules returns one pseudo-rule per rule id the policies declare, so that
// `mirrorlint rules`, SARIF and per-rule severities in the config know them.
func (e *Engine) Rules() []*check.Rule { return e.rules }

// ReadsAnyKind reports whether the policies may read objects of kinds
// mirrorlint has no rules for (a Deployment, a CatalogSource): true as soon
// as a policy of the team's own is loaded. The built-in library reads the
// mirror kinds only.
func (e *Engine) ReadsAnyKind() bool { return e != nil && e.anyKind }

// libraryReads are the kinds the library's policies read (policies.Reads).
var libraryReads = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range policies.Reads {
		m[k] = true
	}
	return m
}()

// inputKinds are the kinds of the objects the input holds: the library's
// alone, nil (every kind) when user policies are loaded, which may read
// any.
func (e *Engine) inputKinds() map[string]bool {
	if e.anyKind {
		return nil
	}
	return libraryReads
}

// inputFields are the members the input document holds besides objects:
// the library's alone (policies.Fields), nil (every member) when user
// policies are loaded, which may read any.
func (e *Engine) inputFields() []string {
	if e.anyKind {
		return nil
	}
	return policies.Fields
}

// Known reports whether id is one of Rules' ids; check.CheckConfig takes it.
func (e *Engine) Known(id string) bool { return e.known[id] }

// packages groups parsed modules and remembers where each came from.
type packages struct {
	byName  map[string]*ast.Module
	order   []string
	builtin map[string]bool // module name → from the embedded library
	skip    map[string]bool // package path → not read the mirrorlint way (conftest mode)
}

// parse parses every source as Rego v1 with annotations, and refuses user
// packages under the reserved prefix. All errors are reported together.
func parse(srcs []source, caps *ast.Capabilities, allowNet bool) (*packages, error) {
	ps := &packages{byName: map[string]*ast.Module{}, builtin: map[string]bool{}}
	var errs ast.Errors
	for _, s := range srcs {
		m, err := ast.ParseModuleWithOpts(s.name, s.text, ast.ParserOptions{
			RegoVersion:       ast.RegoV1,
			ProcessAnnotation: true,
			Capabilities:      caps,
		})
		if err != nil && !s.builtin {
			// conftest policies are often written in Rego v0 (deny[msg] {
			// … }); those are accepted for the compatibility mode.
			if v0, err0 := ast.ParseModuleWithOpts(s.name, s.text, ast.ParserOptions{
				RegoVersion: ast.RegoV0, ProcessAnnotation: true, Capabilities: caps,
			}); err0 == nil && v0 != nil && conftestLike(v0) {
				m, err = v0, nil
			}
		}
		if err != nil {
			if es, ok := err.(ast.Errors); ok {
				errs = append(errs, es...)
				continue
			}
			return nil, fmt.Errorf("policy %s: %w", s.name, err)
		}
		if m == nil {
			errs = append(errs, ast.NewError(ast.ParseErr, &ast.Location{File: s.name}, "empty module: a policy file needs a package"))
			continue
		}
		if !s.builtin && m.Package.Path.HasPrefix(reserved) {
			errs = append(errs, ast.NewError(ast.CompileErr, m.Package.Location,
				"package %s is reserved for mirrorlint's built-in library and configuration: choose another name", strings.TrimPrefix(m.Package.Path.String(), "data.")))
			continue
		}
		ps.byName[s.name] = m
		ps.order = append(ps.order, s.name)
		ps.builtin[s.name] = s.builtin
	}
	if len(errs) > 0 {
		return nil, compileError(errs, allowNet)
	}
	return ps, nil
}

// outputs lists, for every package, the sets among deny/warn/info that one
// of its modules defines, with a query variable each.
func (ps *packages) outputs() []output {
	type key struct{ pkg, set string }
	seen := map[key]int{}
	var outs []output
	for _, name := range ps.order {
		m := ps.byName[name]
		pkg := pkgPath(m)
		if ps.skip[pkg] {
			continue
		}
		for _, r := range m.Rules {
			set := setName(r)
			if set == "" {
				continue
			}
			if i, ok := seen[key{pkg, set}]; ok {
				outs[i].rules = append(outs[i].rules, r)
				continue
			}
			seen[key{pkg, set}] = len(outs)
			outs = append(outs, output{pkg: pkg, ref: m.Package.Path, set: set, builtin: ps.builtin[name], rules: []*ast.Rule{r}})
		}
	}
	sort.Slice(outs, func(i, j int) bool {
		if outs[i].pkg != outs[j].pkg {
			return outs[i].pkg < outs[j].pkg
		}
		return setRank(outs[i].set) < setRank(outs[j].set)
	})
	for i := range outs {
		outs[i].variable = fmt.Sprintf("__out%d", i)
	}
	return outs
}

// setName is "deny", "warn" or "info" for a rule defining one of those sets
// directly in its package (not a function, not deny.x), else "".
func setName(r *ast.Rule) string {
	ref := r.Head.Ref()
	if len(ref) != 1 || len(r.Head.Args) > 0 {
		return ""
	}
	name := string(r.Head.Name)
	if name == "" {
		if v, ok := ref[0].Value.(ast.Var); ok {
			name = string(v)
		}
	}
	if _, ok := setSeverity[name]; !ok {
		return ""
	}
	return name
}

func setRank(set string) int {
	for i, s := range setOrder {
		if s == set {
			return i
		}
	}
	return len(setOrder)
}

// pkgPath is the package path after "data.", elements joined with dots.
func pkgPath(m *ast.Module) string {
	var parts []string
	for _, t := range m.Package.Path[1:] {
		switch v := t.Value.(type) {
		case ast.String:
			parts = append(parts, string(v))
		default:
			parts = append(parts, v.String())
		}
	}
	return strings.Join(parts, ".")
}
