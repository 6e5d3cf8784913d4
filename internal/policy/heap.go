package policy

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/heapwatch"
)

// The builtin caps (limits.go) bound one call, --policy-timeout bounds
// time, but what the evaluator builds between calls (a comprehension over
// two ranges of a million numbers each keeps a pair per step) is bounded by
// neither: it grows for as long as the time limit lets it, and a process
// with little memory or address space (ulimit -v) dies of it within
// seconds. So while a policy evaluates, the Go heap is sampled and the
// evaluation is cancelled once the heap, collected, has grown past a
// budget over what it was when the evaluation started. OPA checks
// cancellation before every expression it evaluates, comprehension bodies
// included, so the evaluation stops within one step of the sample.
const (
	// DefaultMemory is how much the heap may grow during one evaluation
	// when Options.Memory is zero: far above what a sane policy builds
	// (the input document itself is already on the heap when it starts),
	// and within what a CI runner (7 GiB or more) has to spare.
	DefaultMemory = 1 << 30
	// minMemory is what an evaluation may always grow by, even when
	// GOMEMLIMIT or the address-space limit leave less: a run that has
	// reached those limits before the policies start is not the policies'
	// doing, and stopping every evaluation at once would report it as if
	// it were.
	minMemory = 32 << 20
)

// HeapError is why an evaluation was cancelled at its memory budget; it is
// the cause of the evaluation's context (context.Cause).
type HeapError struct {
	// Budget is what the heap was allowed to grow by, in bytes.
	Budget int64
	// Lowered names what lowered Budget below Options.Memory,
	// "GOMEMLIMIT" or "ulimit -v" (the address-space limit); "" when
	// nothing did.
	Lowered string
}

func (e *HeapError) Error() string {
	return fmt.Sprintf("policy evaluation grew the heap by more than %d MiB", e.Budget>>20)
}

// heapWatch samples the heap while evaluations run. The heap is the
// process's, so there is one watch for every evaluation in flight (the
// clusters are evaluated at once): each evaluation has its own ceiling,
// from the heap at its start, and the sampler stops those past theirs.
// The growth of every evaluation running at the time counts against each,
// so one evaluated beside a runaway one may be stopped with it.
type heapWatch struct {
	read     func() heapwatch.Sample
	every    time.Duration
	setLimit func(int64) int64 // debug.SetMemoryLimit
	room     func() int64      // address space left, -1 when unlimited
	collect  func()            // runtime.GC

	mu    sync.Mutex
	evals map[*watched]bool
	stop  chan struct{} // closes the sampler of the evaluations in flight
	saved int64         // the GC memory limit before the first of them
}

// watched is one evaluation under the watch.
type watched struct {
	ceiling uint64 // heap objects past which it is cancelled
	gcLimit uint64 // what the GC is asked to keep the runtime's memory under
	cause   *HeapError
	cancel  context.CancelCauseFunc
}

var processHeap = &heapWatch{read: heapwatch.Read, every: heapwatch.Every, setLimit: debug.SetMemoryLimit, room: heapwatch.Room, collect: runtime.GC}

// watch returns ctx, cancelled with a *HeapError cause once the heap grows
// by more than budget bytes (or what the process's limits leave), and the
// function that ends the watch (call it when the evaluation returns).
//
// While an evaluation runs, the GC's soft memory limit is lowered to the
// ceiling: the GC then collects harder as the heap nears the budget, and
// the heap rarely passes the ceiling with garbage alone. When it does pass
// it, a collection decides (check). The limit the process had
// (GOMEMLIMIT) is restored when the last evaluation in flight ends.
func (h *heapWatch) watch(ctx context.Context, budget int64) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	start := h.read()
	room := h.room()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.evals) == 0 {
		h.evals = map[*watched]bool{}
		h.saved = h.setLimit(-1)
		h.stop = make(chan struct{})
		go h.sample(h.stop)
	}
	cause := lowerBudget(budget, start, h.saved, room)
	ceiling := start.Objects + uint64(cause.Budget)
	// The runtime maps more than its objects hold, so a GC limit at the
	// ceiling has the GC collect before garbage takes the objects there;
	// never below what is mapped already, which would have it collect
	// without pause from the start.
	w := &watched{ceiling: ceiling, gcLimit: max(ceiling, start.Mapped), cause: cause, cancel: cancel}
	h.evals[w] = true
	h.applyLimit()
	return ctx, func() {
		h.mu.Lock()
		h.remove(w)
		h.mu.Unlock()
		cancel(nil)
	}
}

// lowerBudget is the budget an evaluation starting at start gets: budget,
// or less when the process's GOMEMLIMIT (limit) or its address space
// (room, -1 when unlimited) leave less, but never under minMemory.
func lowerBudget(budget int64, start heapwatch.Sample, limit, room int64) *HeapError {
	got, why := heapwatch.Lower(budget, minMemory, start, limit, room)
	return &HeapError{Budget: got, Lowered: string(why)}
}

// sample stops the evaluations past their ceiling, every h.every until
// stop closes.
func (h *heapWatch) sample(stop chan struct{}) {
	t := time.NewTicker(h.every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			h.check()
		}
	}
}

// check reads the heap and cancels the evaluations past their ceiling.
// The heap's objects include garbage not yet collected, so a heap past
// the lowest ceiling is first collected (a full GC, in this goroutine; the
// evaluations run on): only what is still past a ceiling once the garbage
// is gone stops an evaluation.
func (h *heapWatch) check() {
	if s := h.read(); !h.past(s) {
		return
	}
	h.collect()
	s := h.read()
	h.mu.Lock()
	defer h.mu.Unlock()
	for w := range h.evals {
		if s.Objects > w.ceiling {
			w.cancel(w.cause)
			h.remove(w)
		}
	}
}

// past reports whether s is past the ceiling of an evaluation in flight.
func (h *heapWatch) past(s heapwatch.Sample) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for w := range h.evals {
		if s.Objects > w.ceiling {
			return true
		}
	}
	return false
}

// remove ends the watch of w (h.mu held): the last evaluation out stops
// the sampler and gives the process its memory limit back.
func (h *heapWatch) remove(w *watched) {
	if !h.evals[w] {
		return // already stopped at its ceiling
	}
	delete(h.evals, w)
	if len(h.evals) > 0 {
		h.applyLimit()
		return
	}
	close(h.stop)
	h.setLimit(h.saved)
}

// applyLimit sets the GC's memory limit to the lowest ceiling in flight,
// or the process's own when that is lower (h.mu held).
func (h *heapWatch) applyLimit() {
	limit := h.saved
	for w := range h.evals {
		if w.gcLimit < uint64(limit) {
			limit = int64(w.gcLimit)
		}
	}
	h.setLimit(limit)
}
