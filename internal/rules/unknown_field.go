package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
	"github.com/mirrorlint/mirrorlint/internal/suggest"
)

var unknownField = &check.Rule{
	ID:       "unknown-field",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "A field the CRD does not declare: refused under strict validation, silently dropped otherwise.",
	Doc:      doc("unknown-field"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		eachSchemaError(c.Context, func(o *manifest.Object, e schema.Error) {
			if e.Type != schema.Unknown {
				return
			}
			hint := unknownFieldHint(o, e.Path)
			c.ReportKey(o, e.Path, "%s%s", e.Error(), hint)
		})
	},
}

// unknownFieldHint suggests the field the author probably meant.
func unknownFieldHint(o *manifest.Object, p manifest.Path) string {
	name := lastField(p)
	if schema.InPreview(string(o.Kind), p) {
		return " (the field exists only on clusters with the TechPreviewNoUpgrade feature set)"
	}
	switch {
	case name == "sourcePolicy" || (name == "mirrorSourcePolicy" && o.Kind == manifest.KindICSP):
		if o.Kind == manifest.KindICSP {
			return "; ImageContentSourcePolicy has no source policy: migrate to an ImageDigestMirrorSet to use mirrorSourcePolicy"
		}
		return `; did you mean "mirrorSourcePolicy"? Without strict validation the policy is silently dropped`
	case name == "repositoryDigestMirrors" && o.Kind == manifest.KindIDMS:
		return `; did you mean "imageDigestMirrors"? (repositoryDigestMirrors is the ImageContentSourcePolicy field)`
	case name == "repositoryDigestMirrors" && o.Kind == manifest.KindITMS:
		return `; did you mean "imageTagMirrors"?`
	case (name == "imageDigestMirrors" || name == "imageTagMirrors") && o.Kind == manifest.KindICSP:
		return `; did you mean "repositoryDigestMirrors"? (ImageContentSourcePolicy uses the older field name)`
	case name == "mirror-by-digest-only" || name == "mirrorByDigestOnly" || name == "pull-from-mirror":
		return "; that is a registries.conf setting: MCO derives it from the kind (IDMS/ICSP digest-only, ITMS tag-only)"
	}
	if s := suggestField(o, p); s != "" {
		return `; did you mean "` + s + `"?`
	}
	return ""
}

// suggestField finds a sibling field of the schema within a small edit
// distance, case-insensitively.
func suggestField(o *manifest.Object, p manifest.Path) string {
	crd := schema.Lookup(string(o.Kind))
	if crd == nil || len(p) == 0 {
		return ""
	}
	s := crd.Root
	for _, e := range p[:len(p)-1] {
		if s == nil {
			return ""
		}
		switch e := e.(type) {
		case string:
			s = s.Properties[e]
		case int:
			s = s.Items
		}
	}
	if s == nil {
		return ""
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	return suggest.Closest(lastField(p), names, 3)
}
