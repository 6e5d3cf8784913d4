package mco

import (
	"github.com/containers/image/v5/pkg/sysregistriesv2"
)

// fastEncode writes conf exactly as BurntSushi toml v1.6.0 encodes a
// sysregistriesv2.V2RegistriesConf, for the subset of values MCO produces:
// top-level keys in struct order (nil lists and maps omitted), then one
// [[registry]] table per entry with its scalar keys in struct order
// (prefix always; location, insecure, pull-from-mirror, blocked,
// mirror-by-digest-only only when non-zero) followed by its
// [[registry.mirror]] tables, indented by nesting depth. It declines (ok
// false) whenever another shape could need different output: empty but
// non-nil lists, credential helpers, aliases, or any string with a byte the
// encoder would escape or that is not printable ASCII. The equivalence is
// checked by TestFastEncodeMatchesTOML and FuzzRender.
func fastEncode(conf *sysregistriesv2.V2RegistriesConf, withALSHelper bool) ([]byte, bool) {
	if conf.CredentialHelpers != nil || conf.Aliases != nil ||
		(conf.Registries != nil && len(conf.Registries) == 0) ||
		(conf.UnqualifiedSearchRegistries != nil && len(conf.UnqualifiedSearchRegistries) == 0) ||
		!plain(conf.ShortNameMode) || !plain(conf.AdditionalLayerStoreAuthHelper) {
		return nil, false
	}
	size := 128
	for i := range conf.Registries {
		r := &conf.Registries[i]
		size += 64 + len(r.Prefix) + len(r.Location)
		if !plain(r.Prefix) || !plain(r.Location) || !plain(r.PullFromMirror) {
			return nil, false
		}
		for j := range r.Mirrors {
			m := &r.Mirrors[j]
			size += 80 + len(m.Location)
			if !plain(m.Location) || !plain(m.PullFromMirror) {
				return nil, false
			}
		}
	}
	for _, s := range conf.UnqualifiedSearchRegistries {
		if !plain(s) {
			return nil, false
		}
		size += len(s) + 4
	}

	b := make([]byte, 0, size)
	if conf.UnqualifiedSearchRegistries != nil {
		b = append(b, "unqualified-search-registries = ["...)
		for i, s := range conf.UnqualifiedSearchRegistries {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = quoted(b, s)
		}
		b = append(b, "]\n"...)
	}
	b = append(b, "short-name-mode = "...)
	b = quoted(b, conf.ShortNameMode)
	b = append(b, '\n')
	if withALSHelper || conf.AdditionalLayerStoreAuthHelper != "" {
		b = append(b, "additional-layer-store-auth-helper = "...)
		b = quoted(b, conf.AdditionalLayerStoreAuthHelper)
		b = append(b, '\n')
	}
	for i := range conf.Registries {
		r := &conf.Registries[i]
		b = append(b, "\n[[registry]]\n  prefix = "...)
		b = quoted(b, r.Prefix)
		b = append(b, '\n')
		b = endpointKeys(b, "  ", &r.Endpoint)
		if r.Blocked {
			b = append(b, "  blocked = true\n"...)
		}
		if r.MirrorByDigestOnly {
			b = append(b, "  mirror-by-digest-only = true\n"...)
		}
		for j := range r.Mirrors {
			b = append(b, "\n  [[registry.mirror]]\n"...)
			b = endpointKeys(b, "    ", &r.Mirrors[j])
		}
	}
	return b, true
}

func endpointKeys(b []byte, indent string, e *sysregistriesv2.Endpoint) []byte {
	if e.Location != "" {
		b = append(b, indent...)
		b = append(b, "location = "...)
		b = quoted(b, e.Location)
		b = append(b, '\n')
	}
	if e.Insecure {
		b = append(b, indent...)
		b = append(b, "insecure = true\n"...)
	}
	if e.PullFromMirror != "" {
		b = append(b, indent...)
		b = append(b, "pull-from-mirror = "...)
		b = quoted(b, e.PullFromMirror)
		b = append(b, '\n')
	}
	return b
}

func quoted(b []byte, s string) []byte {
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plain reports whether s is written verbatim between double quotes.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
