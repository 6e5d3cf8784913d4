package mirrororder

import (
	"slices"
	"testing"
)

func TestMergeOrder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		source string
		lists  [][]string
		want   []string
	}{
		{"single list keeps order", "s.io/a", [][]string{{"z.io/a", "b.io/a", "m.io/a"}}, []string{"z.io/a", "b.io/a", "m.io/a"}},
		{"overlapping lists chain", "s.io/a", [][]string{{"b.io/a", "c.io/a"}, {"a.io/a", "b.io/a"}}, []string{"a.io/a", "b.io/a", "c.io/a"}},
		{"unrelated lists sort alphabetically", "s.io/a", [][]string{{"z.io/a"}, {"b.io/a"}}, []string{"b.io/a", "z.io/a"}},
		{"cycle broken alphabetically", "z.io/src", [][]string{{"y.io/a", "x.io/a"}, {"x.io/a", "y.io/a"}}, []string{"x.io/a", "y.io/a"}},
		// In a cycle every node has a predecessor, the source included, so
		// an alphabetically early source is emitted first and then kept.
		{"cycle can put the source first", "s.io/a", [][]string{{"y.io/a", "x.io/a"}, {"x.io/a", "y.io/a"}}, []string{"s.io/a", "x.io/a", "y.io/a"}},
		{"duplicate in one list (ICSP)", "s.io/a", [][]string{{"b.io/a", "a.io/a", "b.io/a"}}, []string{"a.io/a", "b.io/a"}},
		{"source among mirrors stays", "s.io/a", [][]string{{"z.io/a", "s.io/a", "b.io/a"}}, []string{"z.io/a", "s.io/a", "b.io/a"}},
		{"source last is dropped", "s.io/a", [][]string{{"z.io/a", "s.io/a"}}, []string{"z.io/a"}},
		{"only-source list ignored", "s.io/a", [][]string{{"s.io/a"}, {"m.io/a"}}, []string{"m.io/a"}},
		{"no real mirror", "s.io/a", [][]string{{"s.io/a"}, {}}, nil},
		// A repeated mirror makes a self-loop: no node is free, c.io/a breaks
		// the loop, releases the source, and m.io/a comes last.
		{"self loop", "s.io/a", [][]string{{"m.io/a", "m.io/a", "c.io/a"}}, []string{"c.io/a", "s.io/a", "m.io/a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := full(tc.source, tc.lists)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("full = %q, want %q", got, tc.want)
			}
			// The fast path for a single simple list must agree.
			if len(tc.lists) == 1 && HasRealMirror(tc.source, tc.lists[0]) {
				if fast := Merge(tc.source, tc.lists); !slices.Equal(fast, tc.want) {
					t.Fatalf("Merge = %q, want %q", fast, tc.want)
				}
			}
		})
	}
}

// TestTopoTieBreak pins the queue discipline: released successors join the
// back of the queue in alphabetical order, after nodes already waiting.
func TestTopoTieBreak(t *testing.T) {
	var g topoGraph
	g.addEdge("a", "z")
	g.addEdge("b", "c")
	g.node("d")
	// Queue starts a, b, d; a releases z (queued after d), b releases c.
	want := []string{"a", "b", "d", "z", "c"}
	if got := g.sorted(); !slices.Equal(got, want) {
		t.Fatalf("sorted = %q, want %q", got, want)
	}
	// A cycle with a tail: nothing is free, so the alphabetically first node
	// (a) goes first, then the queue takes over.
	var h topoGraph
	h.addEdge("c", "a")
	h.addEdge("a", "b")
	h.addEdge("b", "c")
	h.addEdge("b", "d")
	if got := h.sorted(); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Fatalf("cycle sorted = %q", got)
	}
}
