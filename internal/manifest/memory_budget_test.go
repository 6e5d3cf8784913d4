package manifest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/heapwatch"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// spendAfter is a gauge whose budget is spent from the n-th question on:
// the load asks before each file and between documents, so where it stops
// is decided by the test, not by this process's heap.
func spendAfter(n int64) *heapwatch.Gauge {
	var asked atomic.Int64
	return heapwatch.GaugeOf(64<<20, func() heapwatch.Sample {
		if asked.Add(1) >= n {
			return heapwatch.Sample{Live: 1 << 40}
		}
		return heapwatch.Sample{}
	})
}

// Once the run's memory budget is spent the load stops: one limit-exceeded
// problem at the first file (in walk order) it did not read or parse
// whole, every object of the files before it kept, none of that file or
// any later one, whatever the number of workers.
func TestMemoryBudgetStopsTheLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var names []string
	for f := range 12 {
		var b bytes.Buffer
		for i := range 5 {
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d-%d}\n", f, i)
		}
		name := filepath.Join(dir, fmt.Sprintf("f%02d.yaml", f))
		names = append(names, name)
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, workers := range []int{1, 4} {
		for _, after := range []int64{1, 9, 30, 500} {
			t.Run(fmt.Sprintf("workers=%d,after=%d", workers, after), func(t *testing.T) {
				root := safefs.New(0, dir)
				root.Budget = &safefs.Budget{Gauge: spendAfter(after)}
				set, err := Load([]string{dir}, Options{Access: root, Unmodelled: UnmodelledAll, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				var stops []Problem
				for _, p := range set.Problems {
					if p.Code == "limit-exceeded" {
						stops = append(stops, p)
					}
				}
				if after == 500 { // never reached: 12 files of 5 documents
					if len(stops) != 0 || len(set.Objects) != 60 {
						t.Fatalf("budget not spent, yet %d objects and %v", len(set.Objects), stops)
					}
					return
				}
				if len(stops) != 1 {
					t.Fatalf("want one limit-exceeded problem, got %v", stops)
				}
				at := stops[0].Pos.File
				first := -1
				for i, n := range names {
					if n == at {
						first = i
					}
				}
				if first < 0 || !strings.Contains(stops[0].Message, "memory budget") || !strings.Contains(stops[0].Message, "this file and every later file are not checked") {
					t.Fatalf("problem %v: want it at one of the files, naming the memory budget", stops[0])
				}
				per := map[string]int{}
				for _, o := range set.Objects {
					per[o.File]++
				}
				for i, n := range names {
					if want := map[bool]int{true: 5, false: 0}[i < first]; per[n] != want {
						t.Errorf("%s: %d objects kept, want %d (the load stopped at %s)", filepath.Base(n), per[n], want, filepath.Base(at))
					}
				}
			})
		}
	}
}

// A stream is stopped between its documents too.
func TestMemoryBudgetStopsAStream(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	for i := range 50 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d}\n", i)
	}
	root := safefs.New(0, t.TempDir())
	root.Budget = &safefs.Budget{Gauge: spendAfter(10)}
	set, err := LoadReader("-", &b, Options{Access: root, Unmodelled: UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Objects) != 0 || len(set.Problems) != 1 || set.Problems[0].Code != "limit-exceeded" {
		t.Fatalf("kept %d objects with problems %v; want none and one limit-exceeded", len(set.Objects), set.Problems)
	}
}
