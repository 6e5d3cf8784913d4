package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mco"
)

var registryCAKeyNotHost = &check.Rule{
	ID:       "registry-ca-key-not-host",
	Severity: check.Warning,
	Origin:   check.OriginSurprise,
	Summary:  "A key of the additionalTrustedCA ConfigMap is no registry host, so no pull ever uses its CA.",
	Doc:      doc("registry-ca-key-not-host"),
	Reads:    registryCAReads,
	Check: func(p *check.Pass) {
		cm := p.Input.RegistryCA()
		if cm == nil {
			return
		}
		for _, key := range dataKeys(cm) {
			if !mco.IsConfigMapKey(key) {
				continue // registry-ca-key
			}
			dir := strings.ReplaceAll(key, "..", ":")
			if why := notRegistryHost(dir); why != "" {
				p.ReportKey(cm, manifest.Path{"data", key},
					"key %q is %s: the node gets /etc/docker/certs.d/%s/ca.crt, which no pull looks at, so the registry it was meant for fails with \"x509: certificate signed by unknown authority\"; name the key after the registry host as pulls spell it, the port written with two dots (\"mirror.example.com..5000\")", key, why, dir)
			}
		}
	},
}
