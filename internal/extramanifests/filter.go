package extramanifests

import (
	"slices"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// filter is extraManifests.filter: inclusionDefault "include" (the
// default) keeps every manifest but those of exclude; "exclude" keeps only
// those of include. Names are the manifests' data keys (file names, or a
// template's rendered name).
type filter struct {
	mode             string
	modeSet          bool
	include, exclude []string
}

func readFilter(m map[string]any) *filter {
	f := &filter{}
	if v, ok := m["inclusionDefault"]; ok && v != nil {
		f.mode, f.modeSet = scalarString(v), true
	}
	list := func(key string) []string {
		items, _ := m[key].([]any)
		var out []string
		for _, it := range items {
			out = append(out, scalarString(it))
		}
		return out
	}
	f.include, f.exclude = list("include"), list("exclude")
	return f
}

// applyFilter keeps the names of order the site's filter keeps, refusing
// the site as the generator's filterExtraManifests does. When the set
// holds manifests the repository does not show (unknown: the container's
// own, a directory not read), a name it does not hold may be one of
// theirs, so it is not refused.
func (b *builder) applyFilter(f *filter, order []string, unknown bool) ([]string, bool) {
	if f == nil {
		return order, true
	}
	s := b.site
	at := func(p ...any) manifest.Position {
		return s.Object.Locate(s.Path.Child("extraManifests", "filter").Child(p...))
	}
	exclude := false
	switch {
	case !f.modeSet || strings.EqualFold(f.mode, "include"):
	case strings.EqualFold(f.mode, "exclude"):
		exclude = true
	default:
		b.problem(CodeRefused, at("inclusionDefault"), "extraManifests.filter.inclusionDefault %q: the siteconfig-generator fails: acceptable values for inclusionDefault are include and exclude, so none of the SiteConfig's clusters is installed", f.mode)
		return nil, false
	}
	known := func(name string) bool { return slices.Contains(order, name) }
	if exclude {
		if len(f.exclude) > 0 {
			b.problem(CodeRefused, at("exclude"), "extraManifests.filter.exclude with inclusionDefault: exclude: the siteconfig-generator fails: when InclusionDefault is set to exclude, exclude list can not have entries, so none of the SiteConfig's clusters is installed; list the manifests to keep under include")
			return nil, false
		}
		var kept []string
		for i, name := range f.include {
			switch {
			case known(name):
				if !slices.Contains(kept, name) {
					kept = append(kept, name)
				}
			case !unknown:
				b.problem(CodeRefused, at("include", i), "extraManifests.filter.include %q names no extra manifest of the search paths: the siteconfig-generator fails: Filename %s under include array is invalid, so none of the SiteConfig's clusters is installed; name a file of the search paths (a template as <role>-<name>)", name, name)
				return nil, false
			}
		}
		// The generator keeps them in its map; the data keys are sorted
		// when the ConfigMap is written.
		slices.Sort(kept)
		return kept, true
	}
	if len(f.include) > 0 {
		b.problem(CodeRefused, at("include"), "extraManifests.filter.include with inclusionDefault: include: the siteconfig-generator fails: when InclusionDefault is set to include, include list can not have entries, so none of the SiteConfig's clusters is installed; list the manifests to drop under exclude, or set inclusionDefault: exclude")
		return nil, false
	}
	drop := map[string]bool{}
	for i, name := range f.exclude {
		switch {
		case known(name):
			drop[name] = true
		case !unknown:
			b.problem(CodeRefused, at("exclude", i), "extraManifests.filter.exclude %q names no extra manifest of the search paths: the siteconfig-generator fails: Filename %s under exclude array is invalid, so none of the SiteConfig's clusters is installed; name a file of the search paths (a template as <role>-<name>)", name, name)
			return nil, false
		}
	}
	var kept []string
	for _, name := range order {
		if !drop[name] {
			kept = append(kept, name)
		}
	}
	return kept, true
}
