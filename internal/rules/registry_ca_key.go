package rules

import (
	"fmt"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/mco"
)

var registryCAKey = &check.Rule{
	ID:       "registry-ca-key",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "A ConfigMap key the API server refuses, such as a registry CA written host:port instead of host..port.",
	Doc:      doc("registry-ca-key"),
	Reads:    registryCAReads,
	Check: func(p *check.Pass) {
		for _, o := range p.Unmodelled() {
			if o.Kind != manifest.KindConfigMap || o.Content == nil {
				continue
			}
			for _, key := range dataKeys(o) {
				if mco.IsConfigMapKey(key) || manifest.PlaceholderIn(key) != "" {
					continue // a placeholder key is the placeholder rule's
				}
				msg := fmt.Sprintf("data[%s]: Invalid value: %q: ", key, key)
				switch {
				case len(key) > 253:
					msg += "must be no more than 253 characters"
				case key == "." || key == "..":
					msg += "must not be '.' or '..'"
				case strings.HasPrefix(key, "..") && configMapKeyChars.MatchString(key):
					msg += "must not start with '..'"
				default:
					msg += configMapKeyMessage
				}
				msg += "; the API server refuses the whole ConfigMap"
				if host, port, ok := strings.Cut(key, ":"); ok && !strings.Contains(port, ":") {
					msg += fmt.Sprintf(": a registry CA key spells the port with two dots, write %q (the node gets /etc/docker/certs.d/%s/ca.crt)", host+".."+port, key)
				}
				p.ReportKey(o, manifest.Path{"data", key}, "%s", msg)
			}
		}
	},
}
