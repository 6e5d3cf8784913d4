package rules

// scopeSet answers "is x inside any of these scopes" by map lookups over
// the candidates enclosing x.
type scopeSet map[string]bool

func newScopeSet(scopes []string) scopeSet {
	out := make(scopeSet, len(scopes))
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
