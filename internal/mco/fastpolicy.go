package mco

import (
	"encoding/json"
	"slices"
	"strings"
)

// fastEncodePolicy writes p exactly as json.MarshalIndent(p, "", indent)
// does, but encodes each requirement value once per nesting depth instead
// of once per scope: with hundreds of scopes per policy the requirement
// (its key data above all) dominates the output, and the reflective encoder
// spent most of the render's time re-encoding the same value. Maps are
// written with sorted keys and strings with encoding/json's escaping, like
// the encoder. The equivalence is checked by
// TestFastEncodePolicyMatchesJSON and the corpus.
func fastEncodePolicy(p *policyDoc, indent string) ([]byte, bool) {
	e := &policyEncoder{indent: indent, cache: map[cacheKey][]byte{}}
	// Size the output first (encoding each requirement on the way): it
	// runs to megabytes with thousands of scopes.
	size := 256
	for t, m := range p.Transports {
		size += len(t) + 8 + 2*len(indent)
		for s, reqs := range m {
			size += len(s) + 16 + 4*len(indent)
			for _, r := range reqs {
				enc, ok := e.encoded(r, 4)
				if !ok {
					return nil, false
				}
				size += len(enc) + 2 + 4*len(indent)
			}
		}
	}
	e.b = make([]byte, 0, size)
	e.b = append(e.b, '{', '\n')
	e.pad(1)
	e.b = append(e.b, `"default": `...)
	if !e.requirements(p.Default, 1) {
		return nil, false
	}
	e.b = append(e.b, ',', '\n')
	e.pad(1)
	e.b = append(e.b, `"transports": `...)
	if p.Transports == nil {
		e.b = append(e.b, "null"...)
	} else if len(p.Transports) == 0 {
		e.b = append(e.b, "{}"...)
	} else {
		e.b = append(e.b, '{', '\n')
		// The transports share most scopes (atomic holds a subset of
		// docker's): sort the union once.
		var all []string
		largest := ""
		for t, m := range p.Transports {
			if len(m) > len(all) || len(m) == len(all) && t < largest {
				all, largest = sortedKeys(m), t
			}
		}
		for i, t := range sortedKeys(p.Transports) {
			if i > 0 {
				e.b = append(e.b, ',', '\n')
			}
			e.pad(2)
			e.str(t)
			e.b = append(e.b, ':', ' ')
			scopes := p.Transports[t]
			if scopes == nil {
				e.b = append(e.b, "null"...)
				continue
			}
			if len(scopes) == 0 {
				e.b = append(e.b, "{}"...)
				continue
			}
			e.b = append(e.b, '{', '\n')
			keys := all
			if t != largest && !containsAll(scopes, all) {
				keys = sortedKeys(scopes)
			}
			j := 0
			for _, s := range keys {
				reqs, ok := scopes[s]
				if !ok {
					continue
				}
				if j > 0 {
					e.b = append(e.b, ',', '\n')
				}
				e.pad(3)
				e.str(s)
				e.b = append(e.b, ':', ' ')
				if !e.requirements(reqs, 3) {
					return nil, false
				}
				j++
			}
			e.b = append(e.b, '\n')
			e.pad(2)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, '\n')
		e.pad(1)
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, '\n', '}')
	return e.b, true
}

type cacheKey struct {
	req   any
	depth int
}

type policyEncoder struct {
	b      []byte
	indent string
	cache  map[cacheKey][]byte
}

func (e *policyEncoder) pad(depth int) {
	for range depth {
		e.b = append(e.b, e.indent...)
	}
}

// requirements writes a requirement list whose opening bracket sits at
// depth; false when a value does not encode.
func (e *policyEncoder) requirements(reqs []any, depth int) bool {
	if reqs == nil {
		e.b = append(e.b, "null"...)
		return true
	}
	if len(reqs) == 0 {
		e.b = append(e.b, "[]"...)
		return true
	}
	e.b = append(e.b, '[', '\n')
	for i, r := range reqs {
		if i > 0 {
			e.b = append(e.b, ',', '\n')
		}
		e.pad(depth + 1)
		enc, ok := e.encoded(r, depth+1)
		if !ok {
			return false
		}
		e.b = append(e.b, enc...)
	}
	e.b = append(e.b, '\n')
	e.pad(depth)
	e.b = append(e.b, ']')
	return true
}

// encoded is r as json.MarshalIndent writes it at depth, from the cache.
func (e *policyEncoder) encoded(r any, depth int) ([]byte, bool) {
	k := cacheKey{r, depth}
	if enc, ok := e.cache[k]; ok {
		return enc, true
	}
	enc, err := json.MarshalIndent(r, strings.Repeat(e.indent, depth), e.indent)
	if err != nil {
		return nil, false
	}
	e.cache[k] = enc
	return enc, true
}

// str writes s as a JSON string, HTML-escaped like encoding/json.
func (e *policyEncoder) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			e.b = append(e.b, q...)
			return
		}
	}
	e.b = append(e.b, '"')
	e.b = append(e.b, s...)
	e.b = append(e.b, '"')
}

// containsAll reports whether every key of m is in the sorted list keys
// (then walking keys and skipping the absent ones lists m's keys in order):
// keys holds distinct strings, so counting the ones m has settles it.
func containsAll(m map[string][]any, keys []string) bool {
	if len(m) > len(keys) {
		return false
	}
	n := 0
	for _, k := range keys {
		if _, ok := m[k]; ok {
			n++
		}
	}
	return n == len(m)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	radixSort(keys, make([]string, len(keys)), 0)
	return keys
}

// radixSort sorts distinct strings that agree on their first depth bytes
// in byte order, as slices.Sort does, by distributing them on the byte at
// depth (strings ending there first) and recursing; small groups go to
// slices.Sort. Scopes share long prefixes ("registry.example.com/team…"),
// which a comparison sort re-reads at every comparison.
//
// scratch is as long as keys, for the distribution.
func radixSort(keys, scratch []string, depth int) {
	for len(keys) > 32 {
		var counts [257]int
		for _, k := range keys {
			counts[bucket(k, depth)]++
		}
		// A byte every key shares: go one byte deeper without moving anything.
		if counts[bucket(keys[0], depth)] == len(keys) {
			if bucket(keys[0], depth) == 0 {
				return // all end here: they are equal
			}
			depth++
			continue
		}
		var starts [257]int
		for b, sum := 0, 0; b < 257; b++ {
			starts[b], sum = sum, sum+counts[b]
		}
		next := starts
		for _, k := range keys {
			b := bucket(k, depth)
			scratch[next[b]] = k
			next[b]++
		}
		copy(keys, scratch)
		for b := 1; b < 257; b++ {
			if counts[b] > 1 {
				lo, hi := starts[b], starts[b]+counts[b]
				radixSort(keys[lo:hi], scratch[lo:hi], depth+1)
			}
		}
		return
	}
	slices.Sort(keys)
}

// bucket is 0 for a string that ends before depth, else its byte there
// plus one.
func bucket(k string, depth int) int {
	if depth >= len(k) {
		return 0
	}
	return int(k[depth]) + 1
}
