package policy

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// stopped reports whether an evaluation error is the run stopping it, at
// --policy-timeout or at the memory budget (heap.go), rather than a fault
// of the policy.
func stopped(ctx context.Context, err error) bool {
	return topdown.IsCancel(err) || ctx.Err() != nil
}

// stoppedFinding is an evaluation the run stopped, as an error finding
// rather than a failed run: the Go rules' findings and the other clusters
// stay reported. OPA does not say where a cancelled query was, so the
// finding sits at the first of the policy files the stopped query
// evaluates and names the others.
func (e *Engine) stoppedFinding(ctx context.Context, rules [][]*ast.Rule) check.Finding {
	seen := map[string]bool{}
	var files []string
	for _, rs := range rules {
		for _, r := range rs {
			if r.Location == nil || r.Location.File == "" || seen[r.Location.File] {
				continue
			}
			seen[r.Location.File] = true
			files = append(files, r.Location.File)
		}
	}
	sort.Strings(files)
	f := check.Finding{Rule: check.LimitRule.ID, Severity: check.Error}
	where := "the policies"
	if len(files) > 0 {
		f.Position = manifest.Position{File: files[0], Line: 1, Column: 1}
		where = "the policy " + files[0]
		if len(files) > 1 {
			where = "one of the policies " + strings.Join(files, ", ")
		}
	}
	f.Message = e.stopReason(ctx, where)
	return f
}

// stopReason says which limit stopped the evaluation of where, and how to
// stay within it.
func (e *Engine) stopReason(ctx context.Context, where string) string {
	var heap *HeapError
	if !errors.As(context.Cause(ctx), &heap) {
		return fmt.Sprintf("policy evaluation stopped at the time limit of %s (--policy-timeout): %s iterates over too much data or never ends, so the policies' findings for this cluster are missing; make the policy iterate over less, or raise the limit with --policy-timeout only if the policy is known to be slow", e.timeout, where)
	}
	raise := "raise the budget with --policy-memory only if the policy is known to need it"
	if heap.Lowered != "" {
		raise = fmt.Sprintf("give the process more memory (raise %s) only if the policy is known to need it", heap.Lowered)
	}
	return fmt.Sprintf("policy evaluation stopped at the memory budget of %d MiB (%s): the heap grew by more than that while %s evaluated, so the policies' findings for this cluster are missing; make the policy build less (test each element as it iterates instead of collecting them all, and do not pair every element of one large collection with every element of another), or %s", heap.Budget>>20, budgetSource(e.memory, heap), where, raise)
}

// inputStopReason words an evaluation stopped while its input document
// was built: the cluster's objects, not a policy, outgrew the budget.
func (e *Engine) inputStopReason(ctx context.Context, objects int) string {
	var heap *HeapError
	if !errors.As(context.Cause(ctx), &heap) {
		return fmt.Sprintf("policy evaluation stopped at the time limit of %s (--policy-timeout) while the input document of this cluster's %d objects was built, so the policies' findings for this cluster are missing; lint the tree in parts, one run per directory", e.timeout, objects)
	}
	advice := "or raise --policy-memory"
	if heap.Lowered != "" {
		advice = fmt.Sprintf("or give the process more memory (raise %s)", heap.Lowered)
	}
	return fmt.Sprintf("policy evaluation stopped at the memory budget of %d MiB (%s) while the input document of this cluster's %d objects was built, before any policy ran, so the policies' findings for this cluster are missing; lint the tree in parts, one run per directory, %s", heap.Budget>>20, budgetSource(e.memory, heap), objects, advice)
}

// budgetSource says where a memory budget came from: "--policy-memory",
// or what lowered it below the one asked for.
func budgetSource(asked int64, heap *HeapError) string {
	if heap.Lowered == "" {
		return "--policy-memory"
	}
	return fmt.Sprintf("--policy-memory %d MiB, lowered to what %s leaves the process", asked>>20, heap.Lowered)
}

// userRules are the rules of the query's outputs that come from the user's
// policy files (the built-in library is not theirs to fix).
func (e *Engine) userRules() [][]*ast.Rule {
	var out [][]*ast.Rule
	for _, o := range e.outputs {
		if !o.builtin {
			out = append(out, o.rules)
		}
	}
	if len(out) == 0 {
		for _, o := range e.outputs {
			out = append(out, o.rules)
		}
	}
	return out
}

// rulesOf are the rules of one conftest package.
func (p *conftestPackage) rulesOf() [][]*ast.Rule {
	out := make([][]*ast.Rule, 0, len(p.rules))
	for _, r := range p.rules {
		out = append(out, r.rules)
	}
	return out
}

// conftestStopped is a conftest package's query the run stopped.
type conftestStopped struct {
	pkg *conftestPackage
	err error
}

func (t *conftestStopped) Error() string { return t.err.Error() }
func (t *conftestStopped) Unwrap() error { return t.err }
