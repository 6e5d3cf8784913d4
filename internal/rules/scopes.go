package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// place is where a value was written.
type place struct {
	obj  *manifest.Object
	path manifest.Path
}

// regEntry is one [[registry]] entry MCO writes, with the value that
// created it and its flags after MCO propagates insecure and blocked scopes.
type regEntry struct {
	scope      string
	at         place
	mirrors    bool // has mirrors of its own (a source with real mirrors)
	never      bool // NeverContactSource on the source
	insecure   bool
	blocked    bool
	fromSource bool
}

// registryEntries lists the entries in MCO's order (digest sources
// sorted, tag sources sorted, then new blocked scopes and new insecure scopes
// in Image order) with their flags. The payload rule, which may drop a
// blocked scope containing the release repository, is not applied: callers
// use this for node-side and surprise rules, where that corner does not
// change the verdict.
func registryEntries(c *check.Context, s *sets) []*regEntry {
	var out []*regEntry
	byScope := map[string]*regEntry{}
	get := func(scope string, at place) *regEntry {
		if e, ok := byScope[scope]; ok {
			return e
		}
		e := &regEntry{scope: scope, at: at}
		byScope[scope] = e
		out = append(out, e)
		return e
	}
	for _, set := range s.all {
		first := set.entries[0]
		e := get(set.source, place{first.obj, first.sourcePath()})
		e.mirrors, e.fromSource = true, true
		if set.never {
			e.never = true
		}
	}
	img, spec := imageCluster(c)
	if img == nil {
		return out
	}
	rs := spec.RegistrySources
	blocked := scopeList{"blockedRegistries", rs.BlockedRegistries}
	insecure := scopeList{"insecureRegistries", rs.InsecureRegistries}
	for i, b := range blocked.values {
		get(b, place{img, blocked.path(i)})
	}
	for i, b := range insecure.values {
		get(b, place{img, insecure.path(i)})
	}
	ins := newScopeSet(insecure.values)
	blk := newScopeSet(blocked.values)
	for _, e := range out {
		e.insecure = ins.encloses(e.scope)
		e.blocked = e.never || blk.encloses(e.scope)
	}
	return out
}

// scopeSet answers "is x inside any of these scopes" by map lookups over
// the candidates enclosing x.
type scopeSet map[string]bool

func newScopeSet(scopes []string) scopeSet { return scopeSet(nil).with(scopes) }

func (s scopeSet) with(scopes []string) scopeSet {
	out := make(scopeSet, len(s)+len(scopes))
	for k := range s {
		out[k] = true
	}
	for _, x := range scopes {
		out[x] = true
	}
	return out
}

// encloses reports whether some scope of s contains x (or equals it).
func (s scopeSet) encloses(x string) bool {
	_, ok := s.enclosing(x)
	return ok
}

// enclosing returns the most specific scope of s containing x.
func (s scopeSet) enclosing(x string) (string, bool) {
	if len(s) == 0 {
		return "", false
	}
	for _, cand := range enclosing(x, false) {
		if s[cand] {
			return cand, true
		}
	}
	return "", false
}
