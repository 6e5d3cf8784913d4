package render

import (
	"fmt"

	"github.com/containers/image/v5/pkg/sysregistriesv2"

	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// entryTable is the list of [[registry]] entries being built, indexed by
// scope. A scope is the entry's prefix when set (wildcards), else its
// location; MCO creates every entry through one scope, so scopes are unique.
type entryTable struct {
	regs []sysregistriesv2.Registry
	idx  map[string]int
}

func (t *entryTable) get(scope string) int {
	if i, ok := t.idx[scope]; ok {
		return i
	}
	var r sysregistriesv2.Registry
	if scopes.IsWildcard(scope) {
		r.Prefix = scope
	} else {
		r.Location = scope
	}
	t.regs = append(t.regs, r)
	t.idx[scope] = len(t.regs) - 1
	return len(t.regs) - 1
}

// nestedWildcardError is MCO refusing to copy a wildcard source's mirrors to
// a scope nested inside it (it cannot rewrite "*.x" paths).
type nestedWildcardError struct {
	source string
	from   origin
}

func (e *nestedWildcardError) Error() string {
	return fmt.Sprintf("internal error: mirrorsAdjustedForNestedScope for a wildcard scope %q", e.source)
}

// buildEntries produces the [[registry]] entries MCO writes, in MCO's order
// and with MCO's flags:
//
//  1. one entry per digest source (sorted), then per tag source (sorted; an
//     existing entry receives the tag mirrors after its digest mirrors);
//     NeverContactSource blocks the entry;
//  2. entries for blocked scopes, then insecure scopes, in the given order;
//  3. an entry is insecure when its scope lies inside an insecure scope, and
//     a mirror is insecure when its location does (only the mirrors present
//     at this point: copies made in step 5 keep their original's flag);
//  4. an entry is blocked when its scope lies inside a blocked scope;
//  5. each entry still without mirrors that lies strictly inside some source
//     receives that source's mirrors with its own path suffix appended. The
//     source used is the first enclosing one in processing order (digest
//     sources sorted, then tag sources sorted), not the nearest — MCO's
//     quirk, reproduced. If that first source is a wildcard, MCO fails.
//
// MCO gets there with a linear scan per lookup and a scan over all entries
// per insecure/blocked scope and per source; here every "inside" question is
// a hash lookup over the candidates derived from the inner scope.
func buildEntries(insecure, blocked []string, digest, tag []mergedSet) ([]sysregistriesv2.Registry, error) {
	n := len(digest) + len(tag) + len(insecure) + len(blocked)
	t := &entryTable{regs: make([]sysregistriesv2.Registry, 0, n), idx: make(map[string]int, n)}

	addSets := func(sets []mergedSet, pull string) {
		for _, s := range sets {
			i := t.get(s.source)
			r := &t.regs[i]
			if s.never {
				r.Blocked = true
			}
			if r.Mirrors == nil {
				r.Mirrors = make([]sysregistriesv2.Endpoint, 0, len(s.mirrors))
			}
			for _, m := range s.mirrors {
				r.Mirrors = append(r.Mirrors, sysregistriesv2.Endpoint{Location: m, PullFromMirror: pull})
			}
		}
	}
	addSets(digest, sysregistriesv2.MirrorByDigestOnly)
	addSets(tag, sysregistriesv2.MirrorByTagOnly)
	for _, s := range blocked {
		t.get(s)
	}
	for _, s := range insecure {
		t.get(s)
	}

	if len(insecure) > 0 {
		ix := newScopeIndex(len(insecure))
		for i, s := range insecure {
			ix.add(s, i)
		}
		for i := range t.regs {
			r := &t.regs[i]
			if _, in := ix.containing(scopeOf(r), false); in {
				r.Insecure = true
			}
			for j := range r.Mirrors {
				if _, in := ix.containing(r.Mirrors[j].Location, false); in {
					r.Mirrors[j].Insecure = true
				}
			}
		}
	}
	if len(blocked) > 0 {
		ix := newScopeIndex(len(blocked))
		for i, s := range blocked {
			ix.add(s, i)
		}
		for i := range t.regs {
			if _, in := ix.containing(scopeOf(&t.regs[i]), false); in {
				t.regs[i].Blocked = true
			}
		}
	}

	if len(t.regs) == 0 {
		// MCO appends to a nil slice: no entries encode as nothing at all,
		// not as "registry = []".
		return nil, nil
	}
	all := make([]mergedSet, 0, len(digest)+len(tag))
	all = append(append(all, digest...), tag...)
	if len(all) == 0 {
		return t.regs, nil
	}
	sources := newScopeIndex(len(all))
	for i, s := range all {
		sources.add(s.source, i)
	}
	// Entries get their copy from the first enclosing set; MCO would fail at
	// the first set (in processing order) that is a wildcard and is the
	// first enclosing set of some mirrorless entry.
	type copyJob struct{ entry, set int }
	var jobs []copyJob
	failAt := -1
	for i := range t.regs {
		if len(t.regs[i].Mirrors) > 0 {
			continue
		}
		k, ok := sources.containing(scopeOf(&t.regs[i]), true)
		if !ok {
			continue
		}
		if scopes.IsWildcard(all[k].source) {
			if failAt < 0 || k < failAt {
				failAt = k
			}
			continue
		}
		jobs = append(jobs, copyJob{i, k})
	}
	if failAt >= 0 {
		return nil, &nestedWildcardError{source: all[failAt].source, from: all[failAt].first}
	}
	for _, j := range jobs {
		src := &t.regs[t.idx[all[j.set].source]]
		sub := scopeOf(&t.regs[j.entry])
		suffix := sub[len(all[j.set].source):]
		copied := make([]sysregistriesv2.Endpoint, len(src.Mirrors))
		for m, ep := range src.Mirrors {
			ep.Location += suffix
			copied[m] = ep
		}
		t.regs[j.entry].Mirrors = copied
	}
	return t.regs, nil
}

func scopeOf(r *sysregistriesv2.Registry) string {
	if r.Prefix != "" {
		return r.Prefix
	}
	return r.Location
}
