package render

import (
	"maps"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/mirrororder"
)

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
	if !mirrororder.HasRealMirror(source, mirrors) {
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
	sources := slices.Sorted(maps.Keys(c.bySource))
	out := make([]mergedSet, 0, len(sources))
	for _, src := range sources {
		s := c.bySource[src]
		out = append(out, mergedSet{source: src, mirrors: mirrororder.Merge(src, s.lists), never: s.never, first: s.first})
	}
	return out
}
