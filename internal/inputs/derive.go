package inputs

import (
	"fmt"

	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// derivedObject is obj (an openshift/api object) as a loaded object
// placed in the input it comes from: under spec.<list>, entry i and its
// source and mirrors at the values of entries[i] they were copied from,
// everything else at at. The status the serializer writes is left out, as
// the API server drops it on create.
func derivedObject(obj any, list string, entries []DigestSource, at manifest.Position) (*manifest.Object, error) {
	b, err := yaml.Marshal(obj)
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
		if len(p) < 3 || p[0] != "spec" || p[1] != list {
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
		case p[3] == "mirrors" && len(p) == 4 && e.MirrorsAt.Line > 0:
			return e.MirrorsAt
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
	o, err := manifest.Derived(b, at.File, at, place)
	if err == nil {
		o.Created = true
	}
	return o, err
}

// derive places the cluster's IDMSs (made from entries, in order) as
// loaded objects, the rest of each object at the cluster's declaration.
func (c *Cluster) derive(entries [][]DigestSource) {
	c.deriveAt(entries, c.From)
}

// deriveAt is derive with the objects' own fields (kind, metadata) placed
// at at.
func (c *Cluster) deriveAt(entries [][]DigestSource, at manifest.Position) {
	for i, idms := range c.IDMSs {
		var list []DigestSource
		if i < len(entries) {
			list = entries[i]
		}
		if o, err := derivedObject(idms, "imageDigestMirrors", list, at); err == nil {
			c.Objects = append(c.Objects, o)
		}
	}
}

// deriveICSPs places the ICSPs of imageContentSources as loaded objects,
// each at the entries it copies (entries[i] are icsps[i]'s), their own
// fields at at.
func (c *Cluster) deriveICSPs(icsps []*operatorv1alpha1.ImageContentSourcePolicy, entries [][]DigestSource, at manifest.Position) {
	for i, icsp := range icsps {
		if i >= len(entries) {
			break
		}
		if o, err := derivedObject(icsp, "repositoryDigestMirrors", entries[i], at); err == nil {
			c.Objects = append(c.Objects, o)
		}
	}
}
