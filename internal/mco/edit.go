package mco

import (
	"fmt"

	"github.com/containers/image/v5/pkg/sysregistriesv2"

	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// entryTable is the list of [[registry]] entries being built, indexed by
// scope. A scope is the entry's prefix when set (wildcards), else its
// location; MCO creates every entry through one scope, so scopes are unique.
// Beside each entry it keeps where it comes from, for the plan.
type entryTable struct {
	regs []sysregistriesv2.Registry
	idx  map[string]int
	// at is the value that created each entry; set is the index (into
	// the digest-then-tag sets) of the set giving it mirrors of its own,
	// -1 for none; copyFrom is the set MCO copies mirrors from (step 5
	// below), -1 for none.
	at       []Subject
	set      []int
	copyFrom []int
	all      []mergedSet
}

func (t *entryTable) get(scope string, at Subject) int {
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
	t.at = append(t.at, at)
	t.set = append(t.set, -1)
	t.copyFrom = append(t.copyFrom, -1)
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
func buildEntries(insecure, blocked []indexedScope, digest, tag []mergedSet) ([]sysregistriesv2.Registry, error) {
	t := newEntryTable(insecure, blocked, digest, tag)
	if err := t.copyNested(); err != nil {
		return nil, err
	}
	return t.regs, nil
}

// newEntryTable is steps 1 to 4 of buildEntries, and finds for step 5 the
// set each mirrorless entry copies from.
func newEntryTable(insecure, blocked []indexedScope, digest, tag []mergedSet) *entryTable {
	n := len(digest) + len(tag) + len(insecure) + len(blocked)
	t := &entryTable{regs: make([]sysregistriesv2.Registry, 0, n), idx: make(map[string]int, n)}
	t.all = make([]mergedSet, 0, len(digest)+len(tag))
	t.all = append(append(t.all, digest...), tag...)

	for k, s := range t.all {
		i := t.get(s.source, s.first.subject(".source"))
		r := &t.regs[i]
		if t.set[i] < 0 {
			t.set[i] = k
		}
		if s.never {
			r.Blocked = true
		}
		if r.Mirrors == nil {
			r.Mirrors = make([]sysregistriesv2.Endpoint, 0, len(s.mirrors))
		}
		pull := sysregistriesv2.MirrorByDigestOnly
		if s.tag {
			pull = sysregistriesv2.MirrorByTagOnly
		}
		for _, m := range s.mirrors {
			r.Mirrors = append(r.Mirrors, sysregistriesv2.Endpoint{Location: m, PullFromMirror: pull})
		}
	}
	for _, s := range blocked {
		t.get(s.scope, imageSubject("blockedRegistries", s.index))
	}
	for _, s := range insecure {
		t.get(s.scope, imageSubject("insecureRegistries", s.index))
	}

	if len(insecure) > 0 {
		ix := newScopeIndex(len(insecure))
		for i, s := range insecure {
			ix.add(s.scope, i)
		}
		for i := range t.regs {
			r := &t.regs[i]
			if _, in := ix.containing(RegistryScope(r), false); in {
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
			ix.add(s.scope, i)
		}
		for i := range t.regs {
			if _, in := ix.containing(RegistryScope(&t.regs[i]), false); in {
				t.regs[i].Blocked = true
			}
		}
	}
	if len(t.regs) == 0 || len(t.all) == 0 {
		return t
	}
	sources := newScopeIndex(len(t.all))
	for i, s := range t.all {
		sources.add(s.source, i)
	}
	for i := range t.regs {
		if len(t.regs[i].Mirrors) > 0 {
			continue
		}
		if k, ok := sources.containing(RegistryScope(&t.regs[i]), true); ok {
			t.copyFrom[i] = k
		}
	}
	return t
}

// copyNested is step 5 of buildEntries. MCO fails at the first set (in
// processing order) that is a wildcard and is the first enclosing set of
// some mirrorless entry.
func (t *entryTable) copyNested() error {
	if len(t.regs) == 0 {
		// MCO appends to a nil slice: no entries encode as nothing at all,
		// not as "registry = []".
		t.regs = nil
		return nil
	}
	failAt := -1
	for _, k := range t.copyFrom {
		if k >= 0 && scopes.IsWildcard(t.all[k].source) && (failAt < 0 || k < failAt) {
			failAt = k
		}
	}
	if failAt >= 0 {
		return &nestedWildcardError{source: t.all[failAt].source, from: t.all[failAt].first}
	}
	for i, k := range t.copyFrom {
		if k < 0 {
			continue
		}
		set := t.all[k]
		src := &t.regs[t.idx[set.source]]
		sub := RegistryScope(&t.regs[i])
		suffix := sub[len(set.source):]
		copied := make([]sysregistriesv2.Endpoint, len(src.Mirrors))
		for m, ep := range src.Mirrors {
			ep.Location += suffix
			copied[m] = ep
		}
		t.regs[i].Mirrors = copied
	}
	return nil
}

// RegistryScope is the key a registries.conf [[registry]] table is
// known and merged by: its prefix, else its location.
func RegistryScope(r *sysregistriesv2.Registry) string {
	if r.Prefix != "" {
		return r.Prefix
	}
	return r.Location
}
