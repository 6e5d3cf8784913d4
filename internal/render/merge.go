package render

import "sort"

// MergeOrder combines several preference-ordered mirror lists for one source
// into the single list MCO writes: every adjacent pair (a, b) of a list means
// "a before b", a list that does not mention the source also means "its last
// mirror before the source", and the result is topologically sorted with
// alphabetical tie-breaks (see topoOrder). The source is dropped when it
// sorts last (nodes try it last anyway) but stays when something must come
// after it, e.g. [z, src, b] yields z, src, b.
//
// Lists whose mirrors are all equal to the source (or that are empty) are
// ignored, as MCO ignores such entries entirely. The result is nil when no
// list has a real mirror.
func MergeOrder(source string, lists [][]string) []string {
	var g topoGraph
	for _, l := range lists {
		if !hasRealMirror(source, l) {
			continue
		}
		for i := 0; i+1 < len(l); i++ {
			g.addEdge(l[i], l[i+1])
		}
		if !contains(l, source) {
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

func hasRealMirror(source string, mirrors []string) bool {
	for _, m := range mirrors {
		if m != source {
			return true
		}
	}
	return false
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// origin remembers where a value came from, for Subjects.
type origin struct {
	kind  string
	index int    // into the caller's Input slice
	path  string // of the entry, e.g. "spec.imageDigestMirrors[2]"
}

// mirrorSet is one source's collected lists, before merging.
type mirrorSet struct {
	source string
	lists  [][]string
	never  bool   // some entry asked for NeverContactSource
	first  origin // first entry with a real mirror
}

// mergedSet is one source after merging.
type mergedSet struct {
	source  string
	mirrors []string
	never   bool
	first   origin
}

// setCollector groups entries by source in arrival order.
type setCollector struct {
	bySource map[string]*mirrorSet
}

func (c *setCollector) add(source string, mirrors []string, never bool, o origin) {
	// Entries without a real mirror are dropped whole, their
	// mirrorSourcePolicy included: that is what MCO does.
	if !hasRealMirror(source, mirrors) {
		return
	}
	if c.bySource == nil {
		c.bySource = map[string]*mirrorSet{}
	}
	s, ok := c.bySource[source]
	if !ok {
		s = &mirrorSet{source: source, first: o}
		c.bySource[source] = s
	}
	s.lists = append(s.lists, mirrors)
	if never {
		s.never = true
	}
}

// merged returns one mergedSet per source, sorted by source.
func (c *setCollector) merged() []mergedSet {
	sources := make([]string, 0, len(c.bySource))
	for s := range c.bySource {
		sources = append(sources, s)
	}
	sort.Strings(sources)
	out := make([]mergedSet, 0, len(sources))
	for _, src := range sources {
		s := c.bySource[src]
		out = append(out, mergedSet{source: src, mirrors: mergeOne(src, s.lists), never: s.never, first: s.first})
	}
	return out
}

// mergeOne is MergeOrder with a fast path for the overwhelmingly common case
// of a single list that neither repeats a mirror nor mentions the source: its
// order is then kept as is.
func mergeOne(source string, lists [][]string) []string {
	if len(lists) == 1 && simpleList(source, lists[0]) {
		return lists[0]
	}
	return MergeOrder(source, lists)
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
