package check

import (
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// Input is a render.Input plus the way back from its slices to the objects.
type Input struct {
	render.Input
	icsps, idmss, itmss []*manifest.Object
	image               *manifest.Object
}

// BuildInput collects what MCO would read: every known ICSP, IDMS and ITMS,
// and the Image named "cluster" (MCO reads no other). Of several objects
// with one kind and name only the last one counts, as in the cluster, where
// each apply replaces the object the previous one created (see Applied).
// With no Image/cluster the spec is taken as empty, because every cluster
// has that object.
func BuildInput(objs []*manifest.Object, s Settings) *Input {
	in := &Input{}
	in.Version = s.Version
	if in.Version.IsZero() {
		in.Version = render.Newest
	}
	in.ReleaseImage = s.ReleaseImage
	for _, o := range Applied(objs) {
		switch o.Kind {
		case manifest.KindICSP:
			in.ICSPs = append(in.ICSPs, o.ICSP)
			in.icsps = append(in.icsps, o)
		case manifest.KindIDMS:
			in.IDMSs = append(in.IDMSs, o.IDMS)
			in.idmss = append(in.idmss, o)
		case manifest.KindITMS:
			in.ITMSs = append(in.ITMSs, o.ITMS)
			in.itmss = append(in.itmss, o)
		case manifest.KindImage:
			if o.Name == "cluster" {
				in.image = o
				in.Image = &o.Image.Spec
			}
		}
	}
	return in
}

// Object returns the object a render subject names, or nil.
func (in *Input) Object(s render.Subject) *manifest.Object {
	pick := func(list []*manifest.Object) *manifest.Object {
		if s.Index >= 0 && s.Index < len(list) {
			return list[s.Index]
		}
		return nil
	}
	switch manifest.Kind(s.Kind) {
	case manifest.KindICSP:
		return pick(in.icsps)
	case manifest.KindIDMS:
		return pick(in.idmss)
	case manifest.KindITMS:
		return pick(in.itmss)
	case manifest.KindImage:
		return in.image
	}
	return nil
}

// ImageObject is the Image/cluster object, nil when the tree has none.
func (in *Input) ImageObject() *manifest.Object { return in.image }
