// Package heapwatch measures the Go heap for the parts of a run that a
// hostile input can make grow without bound (loading a tree of a million
// tiny documents, evaluating a runaway policy) and says when they have
// grown past a budget. The budget is lowered to what the process's limits
// leave: GOMEMLIMIT, and the address space under ulimit -v, which a Go
// process mostly spends on reservations it never touches.
package heapwatch

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Sample is one reading of the Go runtime's memory.
type Sample struct {
	// Objects is the heap its objects occupy, live or not yet collected:
	// what budgets are measured in.
	Objects uint64
	// Mapped is what the runtime holds from the system, as the GC's
	// memory limit counts it (all it maps, less what it gave back).
	Mapped uint64
	// Live is what the last collection found live: garbage is not in it,
	// but what was allocated since is not either.
	Live uint64
}

var sampleMetrics = []string{"/memory/classes/heap/objects:bytes", "/memory/classes/total:bytes", "/memory/classes/heap/released:bytes", "/gc/heap/live:bytes"}

// Read samples the runtime's memory; it costs about a microsecond and
// stops nothing.
func Read() Sample {
	s := make([]metrics.Sample, len(sampleMetrics))
	for i, name := range sampleMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	v := func(i int) uint64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return s[i].Value.Uint64()
	}
	return Sample{Objects: v(0), Mapped: v(1) - v(2), Live: v(3)}
}

// Lowered names what lowered a budget: "GOMEMLIMIT", "ulimit -v" (the
// address-space limit), or "" when nothing did.
type Lowered string

// Lower is the budget a stage starting at start gets: budget, or less
// when the process's GOMEMLIMIT (limit; math.MaxInt64 or ≤ 0 when unset)
// or its address space (room, -1 when unlimited) leave less, but never
// under floor (a stage that starts with the limits already reached is not
// its own doing; stopping it at once would report it as if it were).
func Lower(budget, floor int64, start Sample, limit, room int64) (int64, Lowered) {
	got, why := budget, Lowered("")
	floor = min(budget, floor)
	lower := func(left int64, what Lowered) {
		if left = max(left, floor); left < got {
			got, why = left, what
		}
	}
	if limit > 0 && limit < math.MaxInt64 {
		what := Lowered("GOMEMLIMIT")
		if limit == fitted.Load() {
			what = "ulimit -v" // the limit FitAddressSpace set for it
		}
		lower(limit-int64(start.Mapped), what)
	}
	if room >= 0 {
		// A heap growing by n maps about n more, and the GC needs room for
		// its own bookkeeping and for the garbage of its last cycle.
		lower(room/2, "ulimit -v")
	}
	return got, why
}

// FitAddressSpace gives the GC a soft memory limit that keeps the heap
// inside the address space ulimit -v leaves, when the process has such a
// limit and no GOMEMLIMIT: without one the GC lets the heap grow to twice
// what is live before it collects, and under a 2 GB cap (of which a Go
// process reserves about 1.3 GB at start, untouched) a load holding 300
// MB of objects dies mapping the next 300 of garbage. With it the GC
// collects harder as the heap nears the limit. It returns the limit set,
// 0 when none was.
func FitAddressSpace() int64 {
	room := Room()
	if room < 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return 0
	}
	limit := int64(Read().Mapped) + room*4/5
	debug.SetMemoryLimit(limit)
	fitted.Store(limit)
	return limit
}

// fitted is the limit FitAddressSpace set, so that a budget it lowers is
// said to be lowered for ulimit -v, not for a GOMEMLIMIT nobody set.
var fitted atomic.Int64
