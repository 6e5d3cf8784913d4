package project

import (
	"errors"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// Rendered is one cluster's render with the way back to the objects.
type Rendered struct {
	Cluster *check.Cluster
	Input   *check.Input
	Output  *render.Output  // nil when refused
	Refusal *render.Refusal // nil when rendered
}

// Render renders one cluster the way MCO would.
func Render(cl *check.Cluster) *Rendered {
	r := &Rendered{Cluster: cl, Input: check.BuildInput(cl.Objects, cl.Settings)}
	out, err := render.Render(r.Input.Input)
	var ref *render.Refusal
	switch {
	case errors.As(err, &ref):
		r.Refusal = ref
	case err != nil:
		r.Refusal = &render.Refusal{Reason: err.Error()}
	default:
		r.Output = out
	}
	return r
}

// Where positions a render subject (refusal or warning) in the sources;
// zero Position when the subject names no object (e.g. the release image).
func (r *Rendered) Where(s render.Subject) manifest.Position {
	o := r.Input.Object(s)
	if o == nil {
		return manifest.Position{}
	}
	return o.Locate(manifest.ParsePath(s.Path))
}
