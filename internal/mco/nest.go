package mco

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// scopeIndex answers "which of these scopes contain X?" without scanning
// them all, which is what keeps rendering O(n log n) instead of MCO's
// O(entries × scopes).
//
// A scope S contains X (scopes.IsNested(X, S)) in exactly three ways, each
// answered by a hash lookup over the O(len(X)) candidates derived from X:
//   - S == X;
//   - S is X cut just before one of its "/" characters;
//   - S is "*" + a suffix of X's host part that starts at a ".".
//
// Each scope carries a value (an index); lookups report the smallest value
// among the containing scopes, which is how "the first mirror set in MCO's
// processing order that encloses X" is found.
type scopeIndex struct {
	exact map[string]int // every scope, as written
	wild  map[string]int // "*.domain" scopes keyed by ".domain"
}

func newScopeIndex(n int) *scopeIndex {
	return &scopeIndex{exact: make(map[string]int, n), wild: map[string]int{}}
}

// add records scope with value v, keeping the smallest value per scope.
func (ix *scopeIndex) add(scope string, v int) {
	if old, ok := ix.exact[scope]; !ok || v < old {
		ix.exact[scope] = v
	}
	if scopes.IsWildcard(scope) {
		k := scope[1:]
		if old, ok := ix.wild[k]; !ok || v < old {
			ix.wild[k] = v
		}
	}
}

// containing returns the smallest value of a scope that contains x, not
// counting a scope equal to x when strict is set; ok is false when none does.
func (ix *scopeIndex) containing(x string, strict bool) (best int, ok bool) {
	consider := func(v int) {
		if !ok || v < best {
			best, ok = v, true
		}
	}
	if !strict {
		if v, found := ix.exact[x]; found {
			consider(v)
		}
	}
	for i := 0; i < len(x); i++ {
		if x[i] == '/' {
			if v, found := ix.exact[x[:i]]; found {
				consider(v)
			}
		}
	}
	if len(ix.wild) > 0 {
		if host, hostOK := scopes.WildcardHostPart(x); hostOK {
			for i := 0; i < len(host); i++ {
				if host[i] != '.' {
					continue
				}
				if v, found := ix.wild[host[i:]]; found {
					// "*"+host[i:] may be x itself (x is a wildcard scope).
					if strict && len(x) == len(host)-i+1 && x[0] == '*' && strings.HasSuffix(x, host[i:]) {
						continue
					}
					consider(v)
				}
			}
		}
	}
	return best, ok
}
