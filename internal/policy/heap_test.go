package policy

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/heapwatch"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// fakeHeap is a heap the test sets, with the GC limit the watch asks for
// and what a collection leaves (garbage: what it frees).
type fakeHeap struct {
	now         heapwatch.Sample
	limit       int64
	garbage     uint64
	collections int
}

// newFakeWatch is a watch over f whose sampler never ticks: the test
// samples itself (check), so nothing depends on timing.
func newFakeWatch(f *fakeHeap) *heapWatch {
	return &heapWatch{
		read:  func() heapwatch.Sample { return f.now },
		every: time.Hour,
		setLimit: func(n int64) int64 {
			old := f.limit
			if n >= 0 {
				f.limit = n
			}
			return old
		},
		room: func() int64 { return -1 },
		collect: func() {
			f.collections++
			f.now.Objects -= f.garbage
			f.garbage = 0
		},
	}
}

// An evaluation is cancelled, with a *HeapError as the cause, once the heap
// is past its start plus the budget, and not before; the GC is asked to
// stay under the lowest ceiling in flight and gets its limit back when the
// last evaluation ends.
func TestHeapWatchCancelsPastTheBudget(t *testing.T) {
	t.Parallel()
	f := &fakeHeap{now: heapwatch.Sample{Objects: 100 << 20, Mapped: 120 << 20}, limit: math.MaxInt64}
	h := newFakeWatch(f)
	first, endFirst := h.watch(context.Background(), 64<<20)
	f.now = heapwatch.Sample{Objects: 150 << 20, Mapped: 170 << 20}
	second, endSecond := h.watch(context.Background(), 64<<20)
	if f.limit != 164<<20 {
		t.Errorf("GC limit %d MiB, want 164 (the first evaluation's ceiling)", f.limit>>20)
	}

	f.now.Objects = 164 << 20 // the first evaluation's ceiling, not past it
	h.check()
	if first.Err() != nil || second.Err() != nil || f.collections != 0 {
		t.Fatalf("at the ceiling: cancelled %v, %v; %d collections", first.Err(), second.Err(), f.collections)
	}

	// Past the ceiling with garbage: a collection, and nothing stopped.
	f.now.Objects, f.garbage = 180<<20, 20<<20
	h.check()
	if first.Err() != nil || second.Err() != nil || f.collections != 1 {
		t.Fatalf("past the ceiling with garbage: cancelled %v, %v; %d collections, want 1", first.Err(), second.Err(), f.collections)
	}

	f.now.Objects = 165 << 20
	h.check()
	var he *HeapError
	if !errors.As(context.Cause(first), &he) || he.Budget != 64<<20 || he.Lowered != "" {
		t.Fatalf("first evaluation's cause %v, want a 64 MiB HeapError", context.Cause(first))
	}
	if second.Err() != nil {
		t.Fatalf("the second evaluation, 15 MiB over its start, was cancelled: %v", context.Cause(second))
	}
	if f.limit != 214<<20 {
		t.Errorf("GC limit %d MiB once the first stopped, want the second's ceiling, 214", f.limit>>20)
	}
	endFirst() // returns after being stopped: nothing left to undo
	endSecond()
	if f.limit != math.MaxInt64 {
		t.Errorf("GC limit %d after the last evaluation, want the process's own back", f.limit)
	}
	if !errors.Is(second.Err(), context.Canceled) || context.Cause(second) != context.Canceled {
		t.Errorf("an evaluation that ended is cancelled plainly, not at the budget: %v", context.Cause(second))
	}

	// A later evaluation starts a sampler and ceiling of its own.
	third, endThird := h.watch(context.Background(), 64<<20)
	defer endThird()
	f.now.Objects += 65 << 20
	h.check()
	if !errors.As(context.Cause(third), &he) {
		t.Errorf("a later evaluation was not watched: %v", context.Cause(third))
	}
}

// The budget is lowered to what GOMEMLIMIT or the address space leaves,
// but an evaluation may always build minMemory (or its own budget when
// that is smaller).
func TestLowerBudget(t *testing.T) {
	t.Parallel()
	start := heapwatch.Sample{Objects: 200 << 20, Mapped: 300 << 20}
	for _, tc := range []struct {
		name          string
		budget, limit int64
		room          int64
		want          int64
		lowered       string
	}{
		{"no limits", 1 << 30, math.MaxInt64, -1, 1 << 30, ""},
		{"GOMEMLIMIT above the budget", 1 << 30, 2 << 30, -1, 1 << 30, ""},
		{"GOMEMLIMIT leaves 212 MiB", 1 << 30, 512 << 20, -1, 212 << 20, "GOMEMLIMIT"},
		{"address space leaves 400 MiB", 1 << 30, math.MaxInt64, 400 << 20, 200 << 20, "ulimit -v"},
		{"the lower of the two", 1 << 30, 400 << 20, 400 << 20, 100 << 20, "GOMEMLIMIT"},
		{"already past GOMEMLIMIT", 1 << 30, 256 << 20, -1, minMemory, "GOMEMLIMIT"},
		{"a budget below the floor stays", 8 << 20, 256 << 20, 0, 8 << 20, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := lowerBudget(tc.budget, start, tc.limit, tc.room)
			if e.Budget != tc.want || e.Lowered != tc.lowered {
				t.Errorf("budget %d MiB lowered by %q, want %d MiB by %q", e.Budget>>20, e.Lowered, tc.want>>20, tc.lowered)
			}
		})
	}
}

// hostileComprehension keeps a pair for each of 10^12 steps: the heap, not
// any one builtin call, grows without bound.
const hostileComprehension = `	x := [[a, b] | some a in numbers.range(1, 1000000); some b in numbers.range(1, 1000000)]
	count(x) > 0
`

// A real evaluation building without bound is stopped at its budget and
// reported as limit-exceeded at its policy file, mirrorlint's packages and
// conftest's alike; the time limit is far off, so only the budget can have
// stopped it.
func TestRunawayHeapStopsTheEvaluation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, src string }{
		{"mirrorlint package", "package acme.big\n\ndeny contains \"x\" if {\n" + hostileComprehension + "}\n"},
		{"conftest package", "package main\n\ndeny contains \"x\" if {\n\tinput.kind\n" + hostileComprehension + "}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "big.rego")
			testtree.WriteFile(t, file, tc.src)
			e := mustLoad(t, Options{Dirs: []string{dir}, Memory: 16 << 20, Timeout: time.Minute})
			fs, err := e.Evaluate(loadFixture(t, "testdata/manifests"))
			if err != nil {
				t.Fatalf("a policy at the memory budget failed the evaluation: %v", err)
			}
			if len(fs) != 1 {
				t.Fatalf("want one limit-exceeded finding, got:\n%s", dump(fs))
			}
			f := fs[0]
			if f.Rule != check.LimitRule.ID || f.Severity != check.Error || f.File != file || f.Line != 1 {
				t.Errorf("finding %s %v at %s:%d, want limit-exceeded error at %s:1", f.Rule, f.Severity, f.File, f.Line, file)
			}
			want := "policy evaluation stopped at the memory budget of 16 MiB (--policy-memory): the heap grew by more than that while the policy " + file + " evaluated"
			if !strings.HasPrefix(f.Message, want) || !strings.Contains(f.Message, "raise the budget with --policy-memory") {
				t.Errorf("message %q, want it to start %q and say how to raise the budget", f.Message, want)
			}
		})
	}
}

// The GC limit is never set below what the runtime maps already (a budget
// smaller than the heap's free spans): the GC would collect without pause.
func TestHeapWatchGCLimitNotBelowMapped(t *testing.T) {
	t.Parallel()
	f := &fakeHeap{now: heapwatch.Sample{Objects: 100 << 20, Mapped: 400 << 20}, limit: math.MaxInt64}
	h := newFakeWatch(f)
	_, end := h.watch(context.Background(), 64<<20)
	if f.limit != 400<<20 {
		t.Errorf("GC limit %d MiB, want the 400 mapped", f.limit>>20)
	}
	end()
}
