package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// formatHint explains in plain words why a source or mirror fails the CRD
// pattern, since the regular expression itself is unreadable. It names the
// first problem found and, when removing it fixes the value, the corrected
// spelling.
func formatHint(v string, source bool) string {
	valid := scopes.ValidMirror
	if source {
		valid = scopes.ValidSource
	}
	suggest := func(why, fixed string) string {
		if fixed != "" && valid(fixed) {
			return fmt.Sprintf("%s; write %q", why, fixed)
		}
		return why
	}
	trimmed := strings.TrimSpace(v)
	switch {
	case v == "":
		return "the value is empty"
	case trimmed != v:
		return suggest("leading or trailing white space", trimmed)
	case strings.ContainsAny(v, " \t"):
		return "white space inside the value"
	case strings.Contains(v, "://"):
		return suggest("a URL scheme is not allowed", v[strings.Index(v, "://")+3:])
	case strings.Contains(v, "@"):
		return suggest("a digest is not allowed: mirrors apply to whole repositories", v[:strings.Index(v, "@")])
	case strings.HasSuffix(v, "/"):
		return suggest("a trailing \"/\" is not allowed", strings.TrimRight(v, "/"))
	case strings.Contains(v, "//"):
		return suggest("an empty path component (\"//\")", strings.ReplaceAll(v, "//", "/"))
	case strings.Contains(v, "*"):
		if source {
			return "a wildcard is allowed only as a whole leading host label, as in \"*.example.com\", without a path or port"
		}
		return "mirrors cannot be wildcards"
	}
	host, path := repoPath(v)
	if i := strings.LastIndexByte(path, ':'); i >= 0 {
		return suggest("a tag is not allowed: mirrors apply to whole repositories", host+"/"+path[:i])
	}
	switch {
	case strings.HasPrefix(host, "["):
		return "IPv6 addresses are not accepted; use a host name"
	case strings.Contains(host, "_"):
		return "\"_\" is not allowed in a host name"
	case path != "" && path != strings.ToLower(path):
		return suggest("the repository path must be lower case", host+"/"+strings.ToLower(path))
	}
	return "it is not of the form host[:port][/path] with a lower-case path"
}

// lowercaseFixes reports whether v's only problem is upper case in the
// repository path: lower-casing the path makes it valid. The host may be
// upper case.
func lowercaseFixes(v string, valid func(string) bool) bool {
	host, path := repoPath(v)
	if path == "" || path == strings.ToLower(path) {
		return false
	}
	return valid(host + "/" + strings.ToLower(path))
}

// hasUpperPath reports upper-case letters in the repository path.
func hasUpperPath(v string) bool {
	if scopes.IsWildcard(v) {
		return false
	}
	_, path := repoPath(v)
	return path != strings.ToLower(path)
}

func lowerPath(v string) string {
	host, path := repoPath(v)
	if path == "" {
		return v
	}
	return host + "/" + strings.ToLower(path)
}

// bodyShouldMatch is the tail of the API server's pattern message.
var bodyShouldMatch = regexp.MustCompile(`in body should match '.*'$`)

// patternMessage leads with the plain-words reason and keeps the API
// server's wording after it, with the (several hundred characters long)
// regular expression replaced by a pointer to the rule's documentation.
func patternMessage(apiErr, hint, rule string) string {
	short := bodyShouldMatch.ReplaceAllString(apiErr, "in body should match the CRD pattern (`mirrorlint rules "+rule+"` explains it)")
	return hint + "; the API server refuses it: " + short
}
