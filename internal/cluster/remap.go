package cluster

import (
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// remap replaces each built object by one positioned in the file that
// defines it: the origin file's object (its node, file, document and
// comments, so Locate and comment suppressions work there) carrying the
// built content (patches, name prefixes and all), which is what the
// cluster receives. An object whose origin cannot be found keeps its
// position in the build output, named after the build.
func remap(b *built, dir string, res *resolver) ([]*manifest.Object, map[*manifest.Object]*manifest.Object) {
	out := make([]*manifest.Object, 0, len(b.Set.Objects))
	origins := map[*manifest.Object]*manifest.Object{}
	for _, o := range b.Set.Objects {
		var src *manifest.Object
		if o.Doc >= 0 && o.Doc < len(b.Origins) && b.Origins[o.Doc] != "" {
			abs := filepath.Clean(filepath.Join(dir, filepath.FromSlash(b.Origins[o.Doc])))
			src = match(o, res.objects(abs))
		}
		if src == nil {
			out = append(out, o)
			continue
		}
		r := *src // copies the unexported source text Locate needs
		r.APIVersion, r.Kind, r.Name, r.Known = o.APIVersion, o.Kind, o.Name, o.Known
		r.Content = o.Content
		r.ICSP, r.IDMS, r.ITMS, r.Image, r.MachineConfig = o.ICSP, o.IDMS, o.ITMS, o.Image, o.MachineConfig
		r.Origin = src.File
		out = append(out, &r)
		origins[&r] = src
	}
	return out, origins
}

// match finds the built object o among the objects of its origin file: same
// kind and name, else the one whose name a prefix/suffix transformer
// extended, else the only object of that kind.
func match(o *manifest.Object, cands []*manifest.Object) *manifest.Object {
	var best *manifest.Object
	n := 0
	for _, c := range cands {
		if c.Kind != o.Kind {
			continue
		}
		n++
		if c.Name == o.Name {
			return c
		}
		if c.Name != "" && strings.Contains(o.Name, c.Name) && (best == nil || len(c.Name) > len(best.Name)) {
			best = c
		}
	}
	if best != nil {
		return best
	}
	if n == 1 {
		for _, c := range cands {
			if c.Kind == o.Kind {
				return c
			}
		}
	}
	return nil
}
