// Package mirrororder merges several preference-ordered mirror lists for one
// source into the single list MCO writes, with MCO's topological sort and its
// alphabetical tie-breaks (a cycle never fails; it is broken by name).
package mirrororder

import "slices"

// full combines several preference-ordered mirror lists for one source
// into the single list MCO writes: every adjacent pair (a, b) of a list means
// "a before b", a list that does not mention the source also means "its last
// mirror before the source", and the result is topologically sorted with
// alphabetical tie-breaks (see topoGraph). The source is dropped when it
// sorts last (nodes try it last anyway) but stays when something must come
// after it, e.g. [z, src, b] yields z, src, b.
//
// Lists whose mirrors are all equal to the source (or that are empty) are
// ignored, as MCO ignores such entries entirely. The result is nil when no
// list has a real mirror.
func full(source string, lists [][]string) []string {
	var g topoGraph
	for _, l := range lists {
		if !HasRealMirror(source, l) {
			continue
		}
		for i := 0; i+1 < len(l); i++ {
			g.addEdge(l[i], l[i+1])
		}
		if !slices.Contains(l, source) {
			g.addEdge(l[len(l)-1], source)
		}
	}
	if len(g.names) == 0 {
		return nil
	}
	order := g.sorted()
	if order[len(order)-1] == source {
		order = order[:len(order)-1]
	}
	return order
}

// HasRealMirror reports whether mirrors holds a mirror other than source:
// MCO drops an entry without one whole, its mirrorSourcePolicy included.
func HasRealMirror(source string, mirrors []string) bool {
	for _, m := range mirrors {
		if m != source {
			return true
		}
	}
	return false
}

// Merge is full with a fast path for the overwhelmingly common case
// of a single list that neither repeats a mirror nor mentions the source: its
// order is then kept as is.
func Merge(source string, lists [][]string) []string {
	if len(lists) == 1 && simpleList(source, lists[0]) {
		return lists[0]
	}
	return full(source, lists)
}

func simpleList(source string, l []string) bool {
	if len(l) > 8 {
		return false
	}
	for i, m := range l {
		if m == source {
			return false
		}
		for _, p := range l[:i] {
			if p == m {
				return false
			}
		}
	}
	return true
}
