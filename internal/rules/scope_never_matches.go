package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

var scopeNeverMatches = &check.Rule{
	ID:       "scope-never-matches",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A source or Image registry scope can never match a normalized image reference.",
	Doc:      doc("scope-never-matches"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		for _, e := range mirrorEntries(c.Context) {
			if why, fix := neverMatches(e.source); why != "" {
				c.Report(e.obj, e.sourcePath(), "source %q never matches an image reference: %s; write %q", e.source, why, fix)
			}
		}
		img, spec := imageCluster(c.Context)
		if img == nil {
			return
		}
		rs := spec.RegistrySources
		for _, l := range []scopeList{{"insecureRegistries", rs.InsecureRegistries}, {"blockedRegistries", rs.BlockedRegistries}, {"allowedRegistries", rs.AllowedRegistries}} {
			for i, s := range l.values {
				if why, fix := neverMatchesImageScope(s); why != "" {
					c.Report(img, l.path(i), "%s entry %q never matches an image reference: %s; %s; write %q", l.field, s, why, lostEffect[l.field], fix)
				}
			}
		}
	},
}

// lostEffect says what an Image scope that never matches fails to do.
var lostEffect = map[string]string{
	"insecureRegistries": "nothing under it is marked insecure, its mirrors included, so pulls needing plain HTTP or an unverified certificate fail",
	"blockedRegistries":  "nothing under it is blocked",
	"allowedRegistries":  "policy.json allows nothing through it, so pulls from there are rejected",
}

// neverMatchesImageScope is neverMatches for an Image registrySources
// entry, which no CRD pattern checks: an upper-case repository path,
// refused in a mirror set's source, is accepted there and never matches
// (repository names are lower case in every image reference).
func neverMatchesImageScope(s string) (why, fix string) {
	why, fix = neverMatches(s)
	if hasUpperPath(s) {
		if why == "" {
			return "the repository path has upper-case letters, and repository paths in image references are always lower case", lowerPath(s)
		}
		fix = lowerPath(fix)
	}
	return why, fix
}

// dockerOfficial are common Docker Hub official images, which live under
// docker.io/library/; a scope docker.io/<name> for one of them is almost
// certainly meant as the image, not a namespace of that name.
var dockerOfficial = map[string]bool{
	"alpine": true, "busybox": true, "centos": true, "debian": true, "fedora": true, "golang": true,
	"haproxy": true, "httpd": true, "mariadb": true, "memcached": true, "mongo": true, "mysql": true,
	"nginx": true, "node": true, "postgres": true, "python": true, "rabbitmq": true, "redis": true,
	"registry": true, "traefik": true, "ubuntu": true, "openjdk": true, "eclipse-temurin": true,
	"elasticsearch": true, "vault": true, "consul": true, "php": true, "ruby": true,
}

// neverMatches explains why scope s cannot match a normalized reference,
// with the spelling that would; "" when it can match.
func neverMatches(s string) (why, fix string) {
	if scopes.IsWildcard(s) && s != strings.ToLower(s) {
		return "image references are matched case-sensitively and are written in lower case", strings.ToLower(s)
	}
	if s == "" || strings.HasPrefix(s, "*") || strings.Contains(s, "://") {
		return "", ""
	}
	host, path := repoPath(s)
	switch {
	case !strings.ContainsAny(host, ".:") && host != "localhost":
		return "it has no registry host, so containers/image reads it as a Docker Hub namespace", "docker.io/" + s
	case host == "index.docker.io" || host == "registry-1.docker.io":
		return host + " is normalized to docker.io", "docker.io" + strings.TrimPrefix(s, host)
	case host == "docker.io" && !strings.Contains(path, "/") && dockerOfficial[path]:
		return "official Docker Hub images are normalized to docker.io/library/" + path, "docker.io/library/" + path
	case host != strings.ToLower(host):
		return "image references are matched case-sensitively and are written in lower case", strings.ToLower(host) + strings.TrimPrefix(s, host)
	}
	return "", ""
}
