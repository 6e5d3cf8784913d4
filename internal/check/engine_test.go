package check

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// everySource is a toy rule: one finding per IDMS source value.
var everySource = &Rule{
	ID: "every-source", Severity: Warning, Summary: "test rule",
	Check: func(c *Pass) {
		for _, o := range c.Objects(manifest.KindIDMS) {
			for i := range o.IDMS.Spec.ImageDigestMirrors {
				c.Report(o, manifest.Path{"spec", "imageDigestMirrors", i, "source"}, "source %s", o.IDMS.Spec.ImageDigestMirrors[i].Source)
			}
		}
	},
}

var panics = &Rule{ID: "panics", Severity: Error, Check: func(*Pass) { panic("boom") }}

const twoSources = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: a
  annotations:
    mirrorlint.io/ignore: |
      every-source: reviewed with the platform team
      no-such-rule: left over
spec:
  imageDigestMirrors:
  - source: quay.io/a
    mirrors: [m.io/a]
---
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: b
spec:
  imageDigestMirrors:
  - source: quay.io/b # mirrorlint:ignore every-source vendor registry, known
    mirrors: [m.io/b]
  # mirrorlint:ignore every-source
  - source: quay.io/c
    mirrors: [m.io/c]
  - source: quay.io/d
    mirrors: [m.io/d]
`

func loadCluster(t *testing.T, files map[string]string) *cluster.Cluster {
	t.Helper()
	dir := t.TempDir()
	testtree.WriteAt(t, dir, files)
	set, err := manifest.Load([]string{dir}, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &cluster.Cluster{Objects: set.Objects, Problems: set.Problems, Settings: cluster.Defaults()}
}

func byRule(fs []Finding) map[string][]Finding {
	m := map[string][]Finding{}
	for _, f := range fs {
		m[f.Rule] = append(m[f.Rule], f)
	}
	return m
}

func TestSuppressionsAnnotationCommentAndUnused(t *testing.T) {
	cl := loadCluster(t, map[string]string{"m.yaml": twoSources})
	reg, _ := NewRegistry(everySource, UnusedSuppressionRule, InvalidSuppressionRule)
	e := &Engine{Rules: reg}
	fs, _, err := e.Lint(cl)
	if err != nil {
		t.Fatal(err)
	}
	fs = append(fs, e.Finish()...)
	got := map[string]string{}
	for _, f := range fs {
		key := f.Rule + " " + strings.TrimPrefix(f.Message, "")
		state := "open"
		if f.Suppressed != nil {
			state = f.Suppressed.Kind + ":" + f.Suppressed.Reason
		}
		got[key] = state
	}
	want := map[string]string{
		"every-source source quay.io/a": "annotation:reviewed with the platform team",
		"every-source source quay.io/b": "comment:vendor registry, known",
		// The comment above quay.io/c has no reason, so it does not suppress.
		"every-source source quay.io/c":                                               "open",
		"every-source source quay.io/d":                                               "open",
		"unused-suppression suppression (annotation) names unknown rule no-such-rule": "open",
		`invalid-suppression suppression (comment) needs a reason: write "# mirrorlint:ignore <rule-id> <reason>"`: "open",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d findings, want %d: %v", len(got), len(want), got)
	}
}

func TestConfigSeverityAndIgnore(t *testing.T) {
	cl := loadCluster(t, map[string]string{"m.yaml": twoSources})
	reg, _ := NewRegistry(everySource, UnusedSuppressionRule, InvalidSuppressionRule)
	cfg := &config.Config{
		Path:  ".mirrorlint.yaml",
		Rules: map[string]string{"every-source": "error"},
		Ignore: []config.Ignore{
			{Rule: "every-source", Object: "ImageDigestMirrorSet/b", Reason: "team b owns it"},
			{Rule: "every-source", Path: "nowhere/*.yaml", Reason: "stale"},
		},
	}
	e := &Engine{Rules: reg, Config: cfg}
	fs, _, err := e.Lint(cl)
	if err != nil {
		t.Fatal(err)
	}
	open := 0
	for _, f := range fs {
		if f.Rule != "every-source" {
			continue
		}
		if f.Severity != Error {
			t.Errorf("severity override not applied: %v", f.Severity)
		}
		if f.Suppressed == nil {
			open++
		} else if f.Object.Name == "b" && f.Suppressed.Kind != "comment" && f.Suppressed.Reason != "team b owns it" {
			t.Errorf("unexpected suppression %+v", f.Suppressed)
		}
	}
	if open != 0 {
		// a: annotation; b, c, d: config by object.
		t.Errorf("%d findings left open, want 0", open)
	}
	unused := byRule(e.Finish())["unused-suppression"]
	var stale bool
	for _, f := range unused {
		stale = stale || strings.Contains(f.Message, "(config) of every-source matches no finding")
	}
	if !stale {
		t.Errorf("the config entry matching nothing was not reported: %+v", unused)
	}
	if !Fails([]Finding{{Severity: Warning}}, Warning) || Fails([]Finding{{Severity: Info}}, Warning) {
		t.Error("Fails threshold is wrong")
	}
}

func TestPanickingRuleIsAnErrorNotACrash(t *testing.T) {
	cl := loadCluster(t, map[string]string{"m.yaml": twoSources})
	reg, _ := NewRegistry(panics)
	_, _, err := (&Engine{Rules: reg}).Lint(cl)
	if err == nil || !strings.Contains(err.Error(), "internal error in rule panics") {
		t.Fatalf("want an internal error naming the rule, got %v", err)
	}
}

func TestProblemsBecomeFindings(t *testing.T) {
	cl := loadCluster(t, map[string]string{"bad.yaml": "a: [\n", "m.yaml": twoSources})
	reg, _ := NewRegistry(everySource)
	fs, _, err := (&Engine{Rules: reg}).Lint(cl)
	if err != nil {
		t.Fatal(err)
	}
	m := byRule(fs)
	if len(m[ProblemRule.ID]) != 1 || m[ProblemRule.ID][0].Line == 0 || !strings.HasSuffix(m[ProblemRule.ID][0].File, "bad.yaml") {
		t.Fatalf("want one positioned unreadable-manifest finding, got %+v", m[ProblemRule.ID])
	}
	if len(m["every-source"]) != 4 {
		t.Fatalf("a broken file hid findings in another file: %d every-source findings", len(m["every-source"]))
	}
}

// A warning problem (a deliberate skip) is a warning finding unless the
// config sets the rule's severity.
func TestWarningProblemsAreWarnings(t *testing.T) {
	cl := &cluster.Cluster{Problems: []manifest.Problem{
		{Pos: manifest.Position{File: "a.yaml"}, Code: "symlink-outside", Message: "skipped", Warning: true},
		{Pos: manifest.Position{File: "b.yaml", Line: 1, Column: 1}, Code: "parse-error", Message: "broken"},
	}, Settings: cluster.Defaults()}
	reg, _ := NewRegistry()
	fs, _, err := (&Engine{Rules: reg}).Lint(cl)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || fs[0].Severity != Warning || fs[1].Severity != Error {
		t.Fatalf("findings %+v", fs)
	}
	fs, _, _ = (&Engine{Rules: reg, Config: &config.Config{Rules: map[string]string{ProblemRule.ID: "error"}}}).Lint(cl)
	if len(fs) != 2 || fs[0].Severity != Error {
		t.Fatalf("config override: %+v", fs)
	}
}

// A problem about several places (the entries of a generator naming
// missing source CRs) is one finding, the other places related to it.
func TestProblemRelatedPlaces(t *testing.T) {
	at := func(line int) manifest.Position { return manifest.Position{File: "pgt.yaml", Line: line, Column: 17} }
	cl := &cluster.Cluster{Problems: []manifest.Problem{
		{Pos: at(10), Code: CodeSourceCRMissing, Message: "3 source CRs", Warning: true, Related: []manifest.Position{at(12), at(14)}},
	}, Settings: cluster.Defaults()}
	reg, _ := NewRegistry()
	fs, _, err := (&Engine{Rules: reg}).Lint(cl)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Rule != SourceCRMissingRule.ID || fs[0].Line != 10 || len(fs[0].Related) != 2 ||
		fs[0].Related[0].Position != at(12) || fs[0].Related[1].Position != at(14) {
		t.Fatalf("findings %+v", fs)
	}
}

func TestMergeListsEveryCluster(t *testing.T) {
	f := Finding{Rule: "r", Message: "m", Position: manifest.Position{File: "base/x.yaml", Line: 3, Column: 5}}
	a, b := f, f
	a.Clusters, b.Clusters = []string{"prod"}, []string{"dev"}
	other := f
	other.Line = 4
	got := Merge([]Finding{a, other}, []Finding{b})
	if len(got) != 2 || strings.Join(got[0].Clusters, ",") != "dev,prod" {
		t.Fatalf("Merge = %+v", got)
	}
}

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		{"legacy/**", "legacy/a/b.yaml", true},
		{"**/icsp.yaml", "clusters/prod/icsp.yaml", true},
		{"clusters/*/icsp.yaml", "clusters/prod/icsp.yaml", true},
		{"clusters/*/icsp.yaml", "clusters/prod/x/icsp.yaml", false},
		{"*.json", "deep/dir/a.json", true},
		{"./base/*.yaml", "base/idms.yaml", true},
	}
	for _, c := range cases {
		if got := GlobMatch(c.pattern, c.name); got != c.want {
			t.Errorf("GlobMatch(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

// evaluatorFunc is a policy engine of one function.
type evaluatorFunc func(c *Context) ([]Finding, error)

func (f evaluatorFunc) Evaluate(c *Context) ([]Finding, error) { return f(c) }

// The rules and the policies of one cluster run at once; Check gives what
// running them one at a time gives: each rule's findings in rule order, the
// policies' after them, and of several errors the first in that order.
func TestCheckRunsRulesAtOnceInRuleOrder(t *testing.T) {
	cl := loadCluster(t, map[string]string{"m.yaml": twoSources})
	var rules []*Rule
	for i := range 8 {
		id := fmt.Sprintf("rule-%d", i)
		rules = append(rules, &Rule{ID: id, Severity: Warning, Summary: "test rule", Check: func(c *Pass) {
			// The later rules finish first when they run at once.
			time.Sleep(time.Duration(8-i) * time.Millisecond)
			for _, o := range c.Objects(manifest.KindIDMS) {
				c.Report(o, manifest.Path{"metadata", "name"}, "%s saw %s", id, o.Name)
			}
		}})
	}
	reg, err := NewRegistry(rules...)
	if err != nil {
		t.Fatal(err)
	}
	policies := evaluatorFunc(func(c *Context) ([]Finding, error) {
		return []Finding{{Rule: "team/policy", Severity: Warning, Message: "from the policies"}}, nil
	})
	run := func(e *Engine, procs int) ([]Finding, error) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		fs, _, err := e.Check(cl)
		return fs, err
	}
	e := &Engine{Rules: reg, Policies: policies}
	one, err := run(e, 1)
	if err != nil {
		t.Fatal(err)
	}
	many, err := run(e, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, many) {
		t.Fatalf("one at a time and at once differ:\n%v\n---\n%v", one, many)
	}
	var order []string
	for _, f := range many {
		if len(order) == 0 || order[len(order)-1] != f.Rule {
			order = append(order, f.Rule)
		}
	}
	want := []string{"rule-0", "rule-1", "rule-2", "rule-3", "rule-4", "rule-5", "rule-6", "rule-7", "team/policy"}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("findings by rule in the order %v, want %v", order, want)
	}

	// rule-2 fails after the others have; rule-6 fails at once.
	rules[2].Check = func(*Pass) { time.Sleep(10 * time.Millisecond); panic("late") }
	rules[6].Check = func(*Pass) { panic("early") }
	policyFails := evaluatorFunc(func(*Context) ([]Finding, error) { return nil, errors.New("policy failed") })
	for _, e := range []*Engine{{Rules: reg, Policies: policies}, {Rules: reg, Policies: policyFails}} {
		if _, err := run(e, 4); err == nil || !strings.Contains(err.Error(), "rule rule-2: late") {
			t.Errorf("want rule-2's error, the first in rule order, got %v", err)
		}
	}
	rules[2].Check, rules[6].Check = rules[0].Check, rules[0].Check
	if _, err := run(&Engine{Rules: reg, Policies: policyFails}, 4); err == nil || err.Error() != "policy failed" {
		t.Errorf("want the policies' error, got %v", err)
	}
}
