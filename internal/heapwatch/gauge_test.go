package heapwatch

import (
	"math"
	"testing"
)

// fakeHeap is a heap the test sets; a collection frees garbage and takes
// a millisecond of the test's clock.
type fakeHeap struct {
	now       Sample
	garbage   uint64
	collected int
	clock     int64
}

func (f *fakeHeap) time() int64 { return f.clock }

func (f *fakeHeap) read() Sample { return f.now }

func (f *fakeHeap) collect() {
	f.collected++
	f.clock += 1e6
	f.now.Objects -= f.garbage
	f.now.Live = f.now.Objects
	f.garbage = 0
}

func gaugeOver(f *fakeHeap, budget int64) *Gauge {
	return newGauge(budget, f.read, -1, -1, f.collect, 0, f.time)
}

// The live heap past the ceiling spends the budget, without a forced
// collection, and the gauge stays over.
func TestGaugeOverWhenLiveHeapPassesTheCeiling(t *testing.T) {
	f := &fakeHeap{now: Sample{Objects: 100 << 20, Live: 80 << 20}}
	g := gaugeOver(f, 64<<20)
	f.now = Sample{Objects: 190 << 20, Live: 164 << 20} // at the ceiling, not past it
	if g.Over() {
		t.Fatal("over at the ceiling")
	}
	f.now.Live = 165 << 20
	if !g.Over() {
		t.Fatal("not over past the ceiling")
	}
	f.now = Sample{}
	if !g.Over() {
		t.Error("the gauge did not stay over once over")
	}
	if f.collected != 0 {
		t.Errorf("%d collections forced, want none: the live heap already said", f.collected)
	}
}

// Garbage alone never spends the budget: within twice the budget nothing
// is forced; past it a collection tells garbage from growth.
func TestGaugeCollectsBeforeCountingGarbage(t *testing.T) {
	f := &fakeHeap{now: Sample{Objects: 100 << 20, Live: 100 << 20}}
	g := gaugeOver(f, 64<<20)
	f.now = Sample{Objects: 220 << 20, Live: 100 << 20}
	if g.Over() || f.collected != 0 {
		t.Fatalf("over %v after %d collections with the heap within twice the budget", g.Over(), f.collected)
	}
	f.now, f.garbage = Sample{Objects: 300 << 20, Live: 100 << 20}, 150<<20
	if g.Over() {
		t.Fatal("garbage counted as growth")
	}
	if f.collected != 1 {
		t.Fatalf("%d collections, want 1", f.collected)
	}
	// The next collection waits twenty times as long as the last took.
	f.now, f.garbage = Sample{Objects: 300 << 20, Live: 100 << 20}, 10<<20
	f.clock += 19e6
	if g.Over() || f.collected != 1 {
		t.Fatalf("a collection forced %d ms after the last, which took 1 ms", 19)
	}
	f.clock += 1e6
	if !g.Over() || f.collected != 2 {
		t.Error("growth past the ceiling, collected, not over")
	}
}

// A budget is lowered to what GOMEMLIMIT and the address space leave, and
// says which lowered it; a limit FitAddressSpace set is the address
// space's doing.
func TestLowerNamesWhatLoweredTheBudget(t *testing.T) {
	start := Sample{Objects: 200 << 20, Mapped: 300 << 20}
	for _, tc := range []struct {
		name        string
		budget      int64
		limit, room int64
		fit         bool
		want        int64
		why         Lowered
	}{
		{"unlimited", 1 << 30, math.MaxInt64, -1, false, 1 << 30, ""},
		{"GOMEMLIMIT", 1 << 30, 800 << 20, -1, false, 500 << 20, "GOMEMLIMIT"},
		{"ulimit -v", 1 << 30, math.MaxInt64, 600 << 20, false, 300 << 20, "ulimit -v"},
		{"fitted", 1 << 30, 700 << 20, 1 << 40, true, 400 << 20, "ulimit -v"},
		{"floor", 1 << 30, 310 << 20, -1, false, 64 << 20, "GOMEMLIMIT"},
		{"budget under the floor", 16 << 20, 310 << 20, -1, false, 16 << 20, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fitted.Store(0)
			if tc.fit {
				fitted.Store(tc.limit)
			}
			defer fitted.Store(0)
			got, why := Lower(tc.budget, 64<<20, start, tc.limit, tc.room)
			if got != tc.want || why != tc.why {
				t.Errorf("Lower = %d MiB %q, want %d MiB %q", got>>20, why, tc.want>>20, tc.why)
			}
		})
	}
}

// The process's own heap, read twice, is a heap: objects hold what is
// live and the runtime maps at least that.
func TestReadSamplesThisProcess(t *testing.T) {
	keep := make([][]byte, 64)
	for i := range keep {
		keep[i] = make([]byte, 1<<20)
	}
	s := Read()
	if s.Objects < 64<<20 || s.Mapped < s.Objects {
		t.Errorf("sample %+v with 64 MiB held", s)
	}
	_ = keep[63][0]
}
