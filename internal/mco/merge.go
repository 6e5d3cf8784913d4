package mco

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

func (o origin) subject(field string) Subject {
	return Subject{Kind: o.kind, Index: o.index, Path: o.path + field}
}

// mirrorSet is one source's collected lists, before merging.
type mirrorSet struct {
	source  string
	lists   [][]string
	never   bool   // some entry asked for NeverContactSource
	first   origin // first entry with a real mirror
	entries []int  // the entries (indexes into the flattened list) merged
}

// mergedSet is one source after merging.
type mergedSet struct {
	source  string
	tag     bool
	mirrors []string
	never   bool
	first   origin
	entries []int
}

// setCollector groups entries by source in arrival order.
type setCollector struct {
	tag      bool
	bySource map[string]*mirrorSet
}

func (c *setCollector) add(source string, mirrors []string, never bool, o origin, entry int) {
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
	s.entries = append(s.entries, entry)
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
		out = append(out, mergedSet{source: src, tag: c.tag, mirrors: mirrororder.Merge(src, s.lists), never: s.never, first: s.first, entries: s.entries})
	}
	return out
}
