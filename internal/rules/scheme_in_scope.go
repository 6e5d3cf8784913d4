package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var schemeInScope = &check.Rule{
	ID:       "scheme-in-scope",
	Severity: check.Error,
	Origin:   check.OriginNode,
	Summary:  "A registry scope carries an http:// or https:// scheme: the nodes reject registries.conf.",
	Doc:      doc("scheme-in-scope"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		msg := "invalid location '%s': URI schemes are not supported; MCO writes it into registries.conf and every node then rejects the whole file, failing image pulls: write %q"
		if img, spec := imageCluster(c.Context); img != nil {
			rs := spec.RegistrySources
			for _, l := range []scopeList{{"insecureRegistries", rs.InsecureRegistries}, {"blockedRegistries", rs.BlockedRegistries}} {
				for i, s := range l.values {
					if hasScheme(s) {
						c.Report(img, l.path(i), msg, s, stripScheme(s))
					}
				}
			}
		}
		v := c.Settings.Version
		if v.AtLeast(16) {
			return // MCO refuses these ICSP values itself (icsp-format)
		}
		for _, e := range mirrorEntries(c.Context) {
			if e.kind() != manifest.KindICSP || !e.realMirror() {
				continue
			}
			if hasScheme(e.source) {
				c.Report(e.obj, e.sourcePath(), msg, e.source, stripScheme(e.source))
			}
			for k, m := range e.mirrors {
				switch {
				case hasScheme(m):
					c.Report(e.obj, e.mirrorPath(k), msg, m, stripScheme(m))
				case m != "" && strings.TrimRight(m, "/") == "":
					c.Report(e.obj, e.mirrorPath(k), "invalid condition: mirror location is unset: the mirror %q is empty once trailing slashes are removed, and every node rejects the whole registries.conf", m)
				}
			}
		}
	},
}

func stripScheme(s string) string {
	if i := strings.Index(s, "://"); i >= 0 {
		return strings.TrimRight(s[i+3:], "/")
	}
	return s
}
