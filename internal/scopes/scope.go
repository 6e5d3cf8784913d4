// Package scopes holds what MCO and containers/image mean by a registry scope:
// which strings the CRDs accept as sources and mirrors, which the Image
// config accepts, and when one scope lies inside another.
package scopes

import (
	"regexp"
	"strings"
)

// The IDMS/ITMS CRD patterns (openshift/api types_image_digest_mirror_set.go).
// MCO 4.16+ applies the same expressions to ICSP values, which have no CRD
// pattern of their own; the source form additionally admits "*.host" wildcards.
const (
	hostComponent = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	hostPort      = `((?:` + hostComponent + `)(?:(?:\.` + hostComponent + `)+)?(?::[0-9]+)?)`
	repoPath      = `(?:(?:/[a-z0-9]+(?:(?:(?:[._]|__|[-]*)[a-z0-9]+)+)?)+)?`
	wildcardHost  = `^\*(?:\.` + hostComponent + `)+$`
)

var (
	mirrorPattern = regexp.MustCompile(`^` + hostPort + repoPath + `$`)
	sourcePattern = regexp.MustCompile(wildcardHost + `|^` + hostPort + repoPath + `$`)
)

// ValidSource reports whether s is accepted as an IDMS/ITMS source (and, from
// 4.16, as an ICSP source by MCO).
func ValidSource(s string) bool { return sourcePattern.MatchString(s) }

// ValidMirror reports whether s is accepted as an IDMS/ITMS mirror (and, from
// 4.16, as an ICSP mirror by MCO). Wildcards are never valid mirrors.
func ValidMirror(s string) bool { return mirrorPattern.MatchString(s) }

// ValidScope reports whether s may be used as an Image insecure, blocked or
// allowed entry: non-empty, and a wildcard only in the exact "*.domain" form
// (no path, digest, port or second wildcard after the "*.").
func ValidScope(s string) bool {
	if s == "" {
		return false
	}
	if !strings.Contains(s, "*") {
		return true
	}
	return strings.HasPrefix(s, "*.") && !strings.ContainsAny(s[2:], "/@:*")
}

// IsNested reports whether sub lies inside super with MCO's semantics:
// equal strings; sub continues super at a "/" boundary; or super is a
// "*.domain" wildcard and the host part of sub ends in ".domain". The host
// part is everything before the first ":" when sub has one (and then it must
// not contain "/"), else everything before the first "/". This is purely
// textual: "*.x.io" does not contain "quay.io/a.x.io", and a sub like
// "a.x.io/p:1" is not inside "*.x.io" because its text before ":" has a "/".
func IsNested(sub, super string) bool {
	if sub == super {
		return true
	}
	if len(sub) > len(super) && sub[len(super)] == '/' && strings.HasPrefix(sub, super) {
		return true
	}
	if !strings.HasPrefix(super, "*.") {
		return false
	}
	host, ok := WildcardHostPart(sub)
	return ok && strings.HasSuffix(host, super[1:])
}

// WildcardHostPart returns the part of scope that a "*.domain" scope is
// matched against, and false when no wildcard can contain scope.
func WildcardHostPart(scope string) (string, bool) {
	if i := strings.IndexByte(scope, ':'); i >= 0 {
		h := scope[:i]
		if strings.IndexByte(h, '/') >= 0 {
			return "", false
		}
		return h, true
	}
	if i := strings.IndexByte(scope, '/'); i >= 0 {
		return scope[:i], true
	}
	return scope, true
}

// IsWildcard reports whether a scope is of the "*.domain" family, which
// registries.conf stores as a prefix rather than a location.
func IsWildcard(scope string) bool { return strings.HasPrefix(scope, "*.") }

// Strings converts typed scope values (configv1.ImageMirror, a mirror
// list's elements) to the plain strings every scope function takes.
func Strings[T ~string](ms []T) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m)
	}
	return out
}
