package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var registryScopeFormat = &check.Rule{
	ID:       "registry-scope-format",
	Severity: check.Error,
	Origin:   check.OriginMCO,
	Summary:  "An Image insecure/blocked/allowed registry entry is not a scope MCO accepts.",
	Doc:      doc("registry-scope-format"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		l := effectiveImageLists(c.Context)
		if l == nil {
			return
		}
		kept := map[int]bool{}
		for _, i := range l.blocked {
			kept[i] = true
		}
		for _, list := range []struct {
			scopeList
			what string
		}{
			{l.insecure, "insecure"},
			{l.written, "blocked"},
			{l.allowed, "allowed"},
		} {
			for i, s := range list.values {
				if scopes.ValidScope(s) {
					continue
				}
				if list.what != "insecure" && (l.discarded || (list.what == "blocked" && !kept[i])) {
					// MCO skips the entry today (payload rule), so it does
					// not refuse; it will once the payload problem is gone.
					f := c.Report(l.img, list.path(i), "invalid entry for %s registries %q (%s): MCO skips it for now because of the release payload rule, and will refuse to render once that changes", list.what, s, scopeHint(s))
					f.AtMost(check.Warning)
					continue
				}
				c.Report(l.img, list.path(i), "invalid entry for %s registries %q: MCO refuses to render and keeps the old configuration (%s)", list.what, s, scopeHint(s))
			}
		}
	},
}

func scopeHint(s string) string {
	switch {
	case s == "":
		return "the entry is empty"
	case !strings.HasPrefix(s, "*."):
		return "a \"*\" is only allowed as a leading \"*.\""
	case strings.ContainsAny(s[2:], "/@"):
		return "a wildcard scope cannot have a path; list the repository without the wildcard"
	case strings.Contains(s[2:], ":"):
		return "a wildcard scope cannot have a port"
	}
	return "only one leading \"*.\" is allowed"
}
