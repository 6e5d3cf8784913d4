package check

import (
	"fmt"
	"slices"
	"sync"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/parallel"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// Evaluator is a second source of findings run on the same context: the
// Rego policy engine. Its findings go through the same severity overrides
// and suppressions as the Go rules'.
type Evaluator interface {
	Evaluate(c *Context) ([]Finding, error)
}

// Engine runs rules over clusters.
type Engine struct {
	Rules    *Registry
	Config   *config.Config // may be nil
	Policies Evaluator      // may be nil
	// Source returns a file's bytes for inline-comment suppressions; nil
	// reads from disk.
	Source func(file string) ([]byte, error)
	// Access confines the files Source may be asked for (see safefs.Root):
	// a file that exists but is outside the root, not a regular file, or
	// over the size cap is never handed to Source. nil still refuses
	// devices, FIFOs and oversized files.
	Access *safefs.Root
	// Relocate, when set, moves findings to where their values are written
	// (a kustomize patch, the origin file of a streamed object) before
	// suppressions are matched, so a suppression comment there applies.
	Relocate func(cl *cluster.Cluster, fs []Finding) []Finding
	// AllReadersLinted, when set, reports whether every cluster that reads
	// file (absolute and symlink-free; "" for the config file's ignore
	// entries, which apply to the whole tree) was linted by this engine.
	// When one was not (--cluster, or a path argument inside a larger
	// repository), a suppression there that matched nothing in this run
	// may be what that cluster needs, so Finish does not call it unused.
	// nil: every cluster was linted.
	AllReadersLinted func(file string) bool

	supOnce sync.Once
	sup     *suppressions
}

// ProblemRule turns loading problems into findings: a file that does not
// parse can hide any number of mistakes, so it is an error.
var ProblemRule = &Rule{
	ID:       "unreadable-manifest",
	Severity: Error,
	Origin:   OriginTool,
	Summary:  "A file or document could not be read as a Kubernetes manifest.",
	Doc:      doc("unreadable-manifest"),
}

// Lint runs every enabled rule and the policies on one cluster, then
// settles the findings (Check, then Settle).
func (e *Engine) Lint(cl *cluster.Cluster) ([]Finding, *Context, error) {
	fs, c, err := e.Check(cl)
	if err != nil {
		return nil, c, err
	}
	return e.Settle(cl, fs), c, nil
}

// Check runs every enabled rule and the policies on one cluster and
// returns their findings as reported, unsorted and not yet settled. It
// reads the engine and changes nothing shared, so several clusters may be
// checked at once; Settle them afterwards, one at a time, in the order the
// run reports them.
func (e *Engine) Check(cl *cluster.Cluster) ([]Finding, *Context, error) {
	c := NewContext(cl)
	var findings []Finding
	for _, p := range cl.Problems {
		r, def := problemRule(p)
		sev := e.severity(r.ID, def)
		if sev == Off {
			continue
		}
		pass := newPass(c, r, sev)
		f := pass.ReportAt(p.Pos, "%s", p.Message)
		for _, rel := range p.Related {
			f.Related = append(f.Related, Location{Position: rel})
		}
		findings = append(findings, pass.Findings()...)
	}
	type job struct {
		rule *Rule
		sev  Severity
	}
	var jobs []job
	for _, r := range e.Rules.All() {
		if sev := e.severity(r.ID, r.Severity); sev != Off && r.Check != nil {
			jobs = append(jobs, job{r, sev})
		}
	}
	// The rules and the policies read the context and report into
	// passes of their own, so they run at once; a large cluster's checks
	// are otherwise one goroutine's work while the other processors idle.
	// Results are kept by index and taken in rule order, policies last,
	// as one at a time gives them. The policies start first: their
	// evaluation is the longest job.
	found := make([][]Finding, len(jobs))
	errs := make([]error, len(jobs))
	var policyFound []Finding
	var policyErr error
	first := 0
	if e.Policies != nil {
		first = 1
	}
	parallel.Each(first+len(jobs), func(i int) {
		if i < first {
			policyFound, policyErr = e.Policies.Evaluate(c)
			return
		}
		j := jobs[i-first]
		found[i-first], errs[i-first] = c.Run(j.rule, j.sev)
	})
	for i := range jobs {
		if errs[i] != nil {
			return nil, c, errs[i]
		}
		findings = append(findings, found[i]...)
	}
	findings = e.dropCovered(findings)
	if e.Policies != nil {
		if policyErr != nil {
			return nil, c, policyErr
		}
		for _, f := range policyFound {
			f.Severity = e.severity(f.Rule, f.Severity)
			if f.Severity != Off {
				findings = append(findings, f)
			}
		}
	}
	for i := range findings {
		if cl.Name != "" && len(findings[i].Clusters) == 0 {
			findings[i].Clusters = []string{cl.Name}
		}
	}
	return findings, c, nil
}

// Settle moves a cluster's findings (from Check) to where their values are
// written, matches suppressions and sorts them. It keeps the run's
// suppression bookkeeping (which Finish reports on), so clusters are
// settled one at a time, in order.
func (e *Engine) Settle(cl *cluster.Cluster, findings []Finding) []Finding {
	// An annotation suppression belongs to its object wherever the finding
	// is relocated to, so remember each finding's file on the object.
	var objFiles []string
	if e.Relocate != nil {
		objFiles = make([]string, len(findings))
		for i, f := range findings {
			objFiles[i] = f.File
		}
		findings = e.Relocate(cl, findings)
		if len(findings) != len(objFiles) {
			objFiles = nil
		}
	}
	findings = e.suppress(cl, findings, objFiles)
	Sort(findings)
	return findings
}

// dropCovered removes each finding that a rule's Covers names when that
// rule reported at the same file, line and column, or named that place
// as a related one: a finding about a value inside an embedded document
// sits on the line of the key holding it, where a suppression comment
// can go, and names the value's own place beside.
func (e *Engine) dropCovered(fs []Finding) []Finding {
	type place struct {
		rule, file string
		line, col  int
	}
	covered := map[place]bool{}
	for _, f := range fs {
		if r := e.Rules.Get(f.Rule); r != nil {
			for _, id := range r.Covers {
				covered[place{id, f.File, f.Line, f.Column}] = true
				for _, rel := range f.Related {
					covered[place{id, rel.File, rel.Line, rel.Column}] = true
				}
			}
		}
	}
	if len(covered) == 0 {
		return fs
	}
	return slices.DeleteFunc(fs, func(f Finding) bool { return covered[place{f.Rule, f.File, f.Line, f.Column}] })
}

// Run runs rule r on c in a pass of its own, at severity sev, and returns
// what it reported. Rules only read the context, so several may run on one
// context at once.
func (c *Context) Run(r *Rule, sev Severity) ([]Finding, error) {
	pass := newPass(c, r, sev)
	if err := runCheck(r, pass); err != nil {
		return nil, err
	}
	return pass.Findings(), nil
}

// runCheck isolates a rule: a panic in one rule is reported as an internal
// error instead of crashing the run and hiding every other finding.
func runCheck(r *Rule, p *Pass) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in rule %s: %v", r.ID, p)
		}
	}()
	r.Check(p)
	return nil
}

func (e *Engine) severity(id string, def Severity) Severity {
	if e.Config != nil {
		if s, ok := e.Config.Rules[id]; ok {
			if v, err := ParseSeverity(s); err == nil {
				return v
			}
		}
	}
	return def
}

// CheckConfig reports config entries naming rules that do not exist; the
// policy ids (with a "/") are checked once policies are loaded.
func CheckConfig(cfg *config.Config, reg *Registry, known func(id string) bool) error {
	if cfg == nil {
		return nil
	}
	for id, sev := range cfg.Rules {
		if _, err := ParseSeverity(sev); err != nil {
			return fmt.Errorf("%s: %w", cfg.Where("rules."+id), err)
		}
		if reg.Get(id) == nil && (known == nil || !known(id)) {
			return fmt.Errorf("%s: no such rule (see `mirrorlint rules`)", cfg.Where("rules."+id))
		}
	}
	return nil
}

// All returns the cluster's objects of the kinds mirrorlint reads, known
// or not (a wrong apiVersion, a misspelt kind), in load order.
func (c *Context) All() []*manifest.Object { return allMemo.Get(c) }

var allMemo = NewMemo("check.all", func(c *Context) []*manifest.Object {
	out := make([]*manifest.Object, 0, len(c.Cluster.Objects))
	for _, o := range c.Cluster.Objects {
		if !o.Unmodelled {
			out = append(out, o)
		}
	}
	return out
})

// Unmodelled returns the cluster's objects of other kinds, kept when the
// load asked for them (manifest.Options.Unmodelled), in load order.
func (c *Context) Unmodelled() []*manifest.Object { return unmodelledMemo.Get(c) }

var unmodelledMemo = NewMemo("check.unmodelled", func(c *Context) []*manifest.Object {
	var out []*manifest.Object
	for _, o := range c.Cluster.Objects {
		if o.Unmodelled {
			out = append(out, o)
		}
	}
	return out
})
