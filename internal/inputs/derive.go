package inputs

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	"sigs.k8s.io/yaml"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// derivedIDMS is idms as a loaded object placed in the input it comes
// from: each entry, source and mirror at the value of entries it was
// copied from, the rest at at. The status the serializer writes is left
// out, as the API server drops it on create.
func derivedIDMS(idms *configv1.ImageDigestMirrorSet, entries []DigestSource, at manifest.Position) (*manifest.Object, error) {
	b, err := yaml.Marshal(idms)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	delete(m, "status")
	if b, err = yaml.Marshal(m); err != nil {
		return nil, err
	}
	place := func(p manifest.Path) manifest.Position {
		if len(p) < 3 || p[0] != "spec" || p[1] != "imageDigestMirrors" {
			return manifest.Position{}
		}
		i, _ := p[2].(int)
		if i >= len(entries) {
			return manifest.Position{}
		}
		e := entries[i]
		switch {
		case len(p) == 3:
			return e.At
		case p[3] == "source":
			return e.SourceAt
		case p[3] == "mirrors" && len(p) == 5:
			if j, _ := p[4].(int); j < len(e.MirrorAt) {
				return e.MirrorAt[j]
			}
		}
		return e.At
	}
	if at.File == "" {
		return nil, fmt.Errorf("derived object without a file")
	}
	return manifest.Derived(b, at.File, at, place)
}

// derive places the cluster's IDMSs (made from entries, in order) as
// loaded objects.
func (c *Cluster) derive(entries [][]DigestSource) {
	for i, idms := range c.IDMSs {
		var list []DigestSource
		if i < len(entries) {
			list = entries[i]
		}
		o, err := derivedIDMS(idms, list, c.From)
		if err != nil {
			continue
		}
		c.Objects = append(c.Objects, o)
	}
}
