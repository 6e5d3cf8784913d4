package policy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// Verify runs the Rego unit tests (rules named test_*) of the built-in
// library (when opts.Builtin) and of opts.Dirs, with the same hermetic
// capabilities and data as Load, and prints one line per test to w, in the
// manner of `opa test -v`. failed is true when any test failed or raised an
// error; err is for policies that do not compile and other usage problems.
func Verify(opts Options, w io.Writer) (failed bool, err error) {
	srcs, err := collect(opts.Dirs, opts.Builtin, true)
	if err != nil {
		return false, err
	}
	caps := capabilities(opts.AllowNet)
	mods, err := parse(srcs, caps, opts.AllowNet)
	if err != nil {
		return false, err
	}
	data, err := loadData(opts.DataFiles)
	if err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), opts.timeout())
	defer cancel()
	// The tests run under the policies' memory budget as evaluations do:
	// a test is a policy too, and its trace (kept to say which
	// expression failed) grows with every step it takes.
	ctx, unwatch := processHeap.watch(ctx, opts.memory())
	defer unwatch()
	runner := tester.NewRunner().
		SetCompiler(newCompiler(caps)).
		SetStore(inmem.NewFromObject(data)).
		SetModules(mods.byName).
		SetTimeout(opts.timeout()).
		CapturePrintOutput(true).
		EnableTracing(true). // only a trace says which expression failed
		RaiseBuiltinErrors(opts.Strict).
		SetParallel(1)
	ch, err := runner.RunTests(ctx, nil)
	if err != nil {
		return false, compileError(err, opts.AllowNet)
	}
	var results []*tester.Result
	for r := range ch {
		results = append(results, r)
	}
	sort.Slice(results, func(i, j int) bool {
		a, b := results[i].Location, results[j].Location
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Row < b.Row
	})
	if len(results) == 0 {
		fmt.Fprintln(w, "no tests found (tests are rules named test_* in *_test.rego files)")
		return false, nil
	}
	var pass, fail, errs, skip int
	file := ""
	for _, r := range results {
		if r.Location.File != file {
			file = r.Location.File
			fmt.Fprintf(w, "%s:\n", file)
		}
		name := r.Package + "." + r.Name
		switch {
		case r.Error != nil:
			errs++
			why := explainRemoved(r.Error.Error(), opts.AllowNet)
			if heap := (*HeapError)(nil); errors.As(context.Cause(ctx), &heap) && stopped(ctx, r.Error) {
				why = fmt.Sprintf("stopped at the memory budget of %d MiB (%s): the heap grew by more than that while the tests ran; make the test build less, or raise the budget with --policy-memory", heap.Budget>>20, budgetSource(opts.memory(), heap))
			}
			fmt.Fprintf(w, "  %s: ERROR (%s)\n    %s:%d: %s\n", name, duration(r.Duration), r.Location.File, r.Location.Row, why)
		case r.Fail:
			fail++
			fmt.Fprintf(w, "  %s: FAIL (%s)\n    %s:%d: test failed", name, duration(r.Duration), r.Location.File, r.Location.Row)
			if loc := failedAt(r); loc != nil {
				fmt.Fprintf(w, " at %s:%d: %s", loc.File, loc.Row, oneLine(string(loc.Text)))
			}
			fmt.Fprintln(w)
		case r.Skip:
			skip++
			fmt.Fprintf(w, "  %s: SKIPPED\n", name)
		default:
			pass++
			fmt.Fprintf(w, "  %s: PASS (%s)\n", name, duration(r.Duration))
		}
		if len(r.Output) > 0 && (r.Fail || r.Error != nil) {
			for _, l := range strings.Split(strings.TrimRight(string(r.Output), "\n"), "\n") {
				fmt.Fprintf(w, "      %s\n", l)
			}
		}
	}
	fmt.Fprintln(w, strings.Repeat("-", 72))
	total := len(results)
	switch {
	case fail+errs == 0:
		fmt.Fprintf(w, "PASS: %d/%d\n", pass, total)
	default:
		if pass > 0 {
			fmt.Fprintf(w, "PASS: %d/%d\n", pass, total)
		}
		if fail > 0 {
			fmt.Fprintf(w, "FAIL: %d/%d\n", fail, total)
		}
		if errs > 0 {
			fmt.Fprintf(w, "ERROR: %d/%d\n", errs, total)
		}
	}
	if skip > 0 {
		fmt.Fprintf(w, "SKIPPED: %d/%d\n", skip, total)
	}
	if errors.As(context.Cause(ctx), new(*HeapError)) {
		fmt.Fprintln(w, "STOPPED: the tests were stopped at the memory budget; the tests not listed above did not run")
		return true, nil
	}
	return fail+errs > 0, nil
}

// failedAt is the expression of the test's own body that failed last: the
// trace also holds failures inside the rules a test calls, which are
// usually expected (a rule body that did not match), so only expressions in
// the test's file at or below the test's first line count.
func failedAt(r *tester.Result) *ast.Location {
	var loc *ast.Location
	for _, ev := range r.Trace {
		if ev.Op != topdown.FailOp || ev.Location == nil {
			continue
		}
		if _, ok := ev.Node.(*ast.Expr); !ok {
			continue
		}
		if ev.Location.File == r.Location.File && ev.Location.Row >= r.Location.Row {
			loc = ev.Location
		}
	}
	return loc
}

func duration(d time.Duration) string {
	if d < time.Millisecond {
		return d.Round(time.Microsecond).String()
	}
	return d.Round(10 * time.Microsecond).String()
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 100 {
		s = s[:97] + "..."
	}
	return s
}
