package rules

import (
	"regexp"
	"strings"

	"github.com/containers/image/v5/docker/reference"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

var searchRegistryFormat = &check.Rule{
	ID:       "search-registry-format",
	Severity: check.Error,
	Origin:   check.OriginNode,
	Summary:  "A containerRuntimeSearchRegistries entry is not a host[:port]; any change to the list reboots nodes.",
	Doc:      doc("search-registry-format"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		img, spec := imageCluster(c.Context)
		if img == nil || spec.RegistrySources.ContainerRuntimeSearchRegistries == nil {
			return
		}
		list := manifest.Path{"spec", "registrySources", "containerRuntimeSearchRegistries"}
		for i, s := range spec.RegistrySources.ContainerRuntimeSearchRegistries {
			t := strings.TrimRight(s, "/")
			if strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://") {
				c.Report(img, list.Child(i), "invalid location '%s': URI schemes are not supported; every node rejects the search-registries drop-in", s)
				continue
			}
			if !searchDomain.MatchString(t) {
				c.Report(img, list.Child(i), "Invalid unqualified-search-registries entry %q: a search registry is a host[:port] without a path; every node rejects the drop-in and image pulls fail", t)
			}
		}
		f := c.Report(img, list, "changing containerRuntimeSearchRegistries rewrites /etc/containers/registries.conf.d/01-image-searchRegistries.conf, which has no NodeDisruptionPolicy: every node drains and reboots on each change")
		f.AtMost(check.Info)
	},
}

var searchDomain = regexp.MustCompile("^" + reference.DomainRegexp.String() + "$")
