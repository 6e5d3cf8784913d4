package rules

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
)

var imageAllowedAndBlocked = &check.Rule{
	ID:       "image-allowed-and-blocked",
	Severity: check.Error,
	Origin:   check.OriginAPI,
	Summary:  "Image registrySources sets both allowedRegistries and blockedRegistries.",
	Doc:      doc("image-allowed-and-blocked"),
	Reads:    modelled,
	Check: func(c *check.Pass) {
		eachSchemaError(c.Context, func(o *manifest.Object, e schema.Error) {
			if e.Type != schema.Rule || o.Kind != manifest.KindImage {
				return
			}
			allowed := e.Path.Child("allowedRegistries")
			at := allowed
			if l, _ := nestedList(o.Content, "spec", "registrySources", "allowedRegistries"); len(l) > 0 {
				at = allowed.Child(0)
			}
			f := c.Report(o, at, "%s (the API server refuses the object; MCO refuses to render with \"only one of AllowedRegistries or BlockedRegistries may be specified\")", e.Error())
			f.Also(o, e.Path.Child("blockedRegistries"))
		})
		// MCO's own variant, which needs the payload machinery of the
		// renderer: trust its refusal when the user wrote no allow list.
		r := c.Refusal
		img, spec := imageCluster(c.Context)
		if r != nil && img != nil && len(spec.RegistrySources.AllowedRegistries) == 0 &&
			strings.Contains(r.Reason, "only one of AllowedRegistries or BlockedRegistries") {
			if o := c.SubjectObject(r.Subject); o == img {
				c.Report(o, manifest.ParsePath(r.Subject.Path),
					"MCO refuses to render: %s (several blocked entries contain the release payload repository, which MCO then adds to the allow list more than once); keep one blocked entry for the payload's registry", r.Reason)
			}
		}
	},
}

// nestedList reads a list from plain object content.
func nestedList(m map[string]any, keys ...string) ([]any, bool) {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur = mm[k]
	}
	l, ok := cur.([]any)
	return l, ok
}
