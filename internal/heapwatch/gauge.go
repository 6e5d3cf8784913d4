package heapwatch

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// Gauge says whether the heap has grown past a budget since the gauge
// was made. It is asked, from any goroutine, before each file is read and
// between the documents of a file, so it samples the heap at most once
// per interval and answers from the last sample otherwise: asking costs a
// clock read. Once over, it stays over.
type Gauge struct {
	budget  int64
	lowered Lowered
	ceiling uint64

	every time.Duration
	next  atomic.Int64 // when the next sample is due, in ns since start
	over  atomic.Bool
	mu    sync.Mutex // one collection at a time
	// forceAfter is when a collection may next be forced (g.mu held).
	forceAfter int64

	read    func() Sample
	collect func()
	clock   func() int64 // ns since the gauge was made
}

// Every is how often the heap is sampled (by a Gauge, by the policies'
// watch): a load or an evaluation building a gigabyte a second overshoots
// its budget by a few MiB.
const Every = 5 * time.Millisecond

// gaugeFloor is the least a gauge's budget is lowered to (see Lower).
const gaugeFloor = 64 << 20

// NewGauge is a gauge allowing the heap to grow by budget bytes over what
// it holds now, lowered to what GOMEMLIMIT and ulimit -v leave.
func NewGauge(budget int64) *Gauge {
	return newGauge(budget, Read, debug.SetMemoryLimit(-1), Room(), runtime.GC, Every, monotonic())
}

// GaugeOf is a gauge over the readings read gives instead of this
// process's heap, sampled on every question, with no limits lowering its
// budget and no collection forced: for callers that measure something
// else, and for tests that decide when a budget is spent.
func GaugeOf(budget int64, read func() Sample) *Gauge {
	return newGauge(budget, read, -1, -1, func() {}, 0, monotonic())
}

// monotonic is a clock of ns since it was made.
func monotonic() func() int64 {
	start := time.Now()
	return func() int64 { return int64(time.Since(start)) }
}

func newGauge(budget int64, read func() Sample, limit, room int64, collect func(), every time.Duration, clock func() int64) *Gauge {
	start := read()
	got, why := Lower(budget, gaugeFloor, start, limit, room)
	return &Gauge{budget: got, lowered: why, ceiling: start.Objects + uint64(got),
		every: every, read: read, collect: collect, clock: clock}
}

// Over reports whether the heap's live objects have grown past the
// budget. What the last collection found live is the measure: garbage is
// not counted, and no collection is forced while the heap, garbage
// included, stays within twice the budget (the GC's own pace, or its
// memory limit under ulimit -v, collects often enough). Past that, a
// collection is forced to tell garbage from growth, at most once per
// twenty times the last forced collection took, so that a heap hovering
// there costs at most a twentieth of the run.
func (g *Gauge) Over() bool {
	if g == nil {
		return false
	}
	if g.over.Load() {
		return true
	}
	now := g.clock()
	due := g.next.Load()
	if now < due || !g.next.CompareAndSwap(due, now+int64(g.every)) {
		return false
	}
	s := g.read()
	if s.Live > g.ceiling {
		g.over.Store(true)
		return true
	}
	if s.Objects <= g.ceiling+uint64(g.budget) {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.over.Load() || now < g.forceAfter {
		return g.over.Load()
	}
	began := g.clock()
	g.collect()
	if s := g.read(); s.Live > g.ceiling || s.Objects > g.ceiling {
		g.over.Store(true)
		return true
	}
	end := g.clock()
	g.forceAfter = end + 20*(end-began)
	return false
}

// Describe words the budget for a message: "1024 MiB", or "412 MiB,
// lowered to fit ulimit -v".
func (g *Gauge) Describe() string {
	s := fmt.Sprintf("%d MiB", g.budget>>20)
	if g.lowered != "" {
		s += fmt.Sprintf(", lowered to fit %s", g.lowered)
	}
	return s
}
