package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/lint"
	"github.com/mirrorlint/mirrorlint/internal/render"
)

var registryScopeFormat = &lint.Rule{
	ID:       "registry-scope-format",
	Severity: lint.Error,
	Origin:   lint.OriginMCO,
	Summary:  "An Image insecure/blocked/allowed registry entry is not a scope MCO accepts.",
	Doc: `MCO checks every ` + "`insecureRegistries`" + `, ` + "`blockedRegistries`" + ` and ` + "`allowedRegistries`" + `
entry of Image/cluster with runtime-utils ` + "`IsValidRegistriesConfScope`" + `: it must not be
empty, and a ` + "`*`" + ` is only allowed as a leading ` + "`*.`" + ` followed by a plain domain (no
` + "`/`" + `, ` + "`@`" + `, ` + "`:`" + ` or second ` + "`*`" + `). Otherwise it refuses to render with
` + "`invalid entry for blocked registries \"*.example.com/ns\"`" + ` (or the insecure/allowed
variant), logs it, and keeps the previous configuration; nothing is marked Degraded.
The Image CRD has no pattern for these lists, so the API server accepts the object.

**Fix:** a wildcard covers a whole domain; list a repository without a wildcard.

` + "```yaml" + `
blockedRegistries:
- "*.example.com"          # not "*.example.com:5000" or "*.example.com/ns"
- registry.example.com/ns
` + "```",
	Check: func(c *lint.Context) {
		img, spec := imageCluster(c)
		if img == nil {
			return
		}
		rs := spec.RegistrySources
		for _, l := range []struct {
			scopeList
			what string
		}{
			{scopeList{"insecureRegistries", rs.InsecureRegistries}, "insecure"},
			{scopeList{"blockedRegistries", rs.BlockedRegistries}, "blocked"},
			{scopeList{"allowedRegistries", rs.AllowedRegistries}, "allowed"},
		} {
			for i, s := range l.values {
				if render.ValidScope(s) {
					continue
				}
				c.Report(img, l.path(i), "invalid entry for %s registries %q: MCO refuses to render and keeps the old configuration (%s)", l.what, s, scopeHint(s))
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
