package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

var registryCAMissing = &check.Rule{
	ID:       "registry-ca-missing",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A mirror host has no CA in the additionalTrustedCA ConfigMap the tree holds.",
	Doc:      doc("registry-ca-missing"),
	Reads:    registryCAReads,
	Check: func(p *check.Pass) {
		cm := p.Input.RegistryCA()
		if cm == nil {
			return
		}
		have := map[string]bool{}
		var dirs []string
		for _, key := range dataKeys(cm) {
			dir := strings.ReplaceAll(key, "..", ":")
			have[dir] = true
			dirs = append(dirs, dir)
		}
		seen := map[string]bool{}
		for _, e := range mirrorEntries(p.Context) {
			for i, m := range e.mirrors {
				host, _, _ := strings.Cut(m, "/")
				if host == "" || have[host] || seen[host] || !strings.ContainsAny(host, ".:") {
					continue
				}
				seen[host] = true
				p.Report(e.obj, e.mirrorPath(i),
					"mirror host %q has no CA in ConfigMap openshift-config/%s (it has %s): the nodes look its CA up in /etc/docker/certs.d/%s/, so unless a CA the nodes already trust signed its certificate, pulls from it fail with \"x509: certificate signed by unknown authority\"; add a key %q with its CA",
					host, cm.Name, keyList(dirs), host, strings.ReplaceAll(host, ":", ".."))
			}
		}
	},
}
