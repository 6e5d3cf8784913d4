// Package trace finds the line that wrote a value. A finding belongs on
// the line that wrote the value it is about, which after a kustomize build
// is in a base, an overlay or a patch, never in the build's output.
//
// For the clusters discovery builds in-process (package build), in two
// steps:
//
//   - at build time (Remap, here): kustomize is asked to annotate every
//     output object with the file it came from (WithOriginAnnotations),
//     and each built object takes the place of that file's object, with
//     the built content, so that Locate answers in the file;
//   - once findings exist (Relocation.Place, patch.go): a value the file
//     does not hold was written by a patch, which is searched, last
//     applied first, for the node holding it (value.go matches values and
//     JSON pointers; kustomization.InlineText places a node of a patch
//     written inside a kustomization or transformer configuration).
//
// Objects read from a stream (`kustomize build | mirrorlint lint -`, a KRM
// ResourceList) carry origin annotations that the loader reads
// (manifest.Object.Origin); Remapper (origin.go) follows them, with the
// same patch search (PatchFinder) and the same way of finding an object in
// its file (SourceObject). A stream has no discovery, no kustomization
// graph and no cluster: it needs only the files the annotations name.
//
// The objects a PolicyGenerator delivers from a kustomization its manifest
// path names are read node by node, as the generator's other objects are:
// Placer (nodes.go) places each node of such a built object where the
// steps above would place a finding on its value.
//
// The package speaks of objects, paths and positions only; moving findings
// is the caller's (check.Move).
package trace

import (
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// OriginOption is kustomize's buildMetadata switch that annotates every
// output object with the file it came from.
const OriginOption = "originAnnotations"

// OriginFS is a file system that serves the top-level kustomization with
// buildMetadata: [originAnnotations] added: kustomize has no API option for
// it, and the user's file must not change.
type OriginFS struct {
	filesys.FileSystem
	Path string // the real (symlink-free) path of the kustomization file
	Data []byte
}

func (f OriginFS) ReadFile(p string) ([]byte, error) {
	if filepath.Clean(p) == f.Path {
		return f.Data, nil
	}
	return f.FileSystem.ReadFile(p)
}

// WithOriginAnnotations returns the kustomization text with the origin
// option on; nil when the file does not parse (the build reports that).
func WithOriginAnnotations(data []byte) []byte {
	rn, err := yaml.Parse(string(data))
	if err != nil {
		return nil
	}
	list, err := rn.Pipe(yaml.LookupCreate(yaml.SequenceNode, "buildMetadata"))
	if err != nil || list == nil {
		return nil
	}
	vals, _ := list.ElementValues("")
	for _, v := range vals {
		if v == OriginOption {
			return data
		}
	}
	if err := list.PipeE(yaml.Append(yaml.NewScalarRNode(OriginOption).YNode())); err != nil {
		return nil
	}
	s, err := rn.String()
	if err != nil {
		return nil
	}
	return []byte(s)
}

// Remap replaces each built object by one positioned in the file that
// defines it: the origin file's object (its node, file, document and
// comments, so Locate and comment suppressions work there) carrying the
// built content (patches, name prefixes and all), which is what the
// cluster receives. An object whose origin cannot be found keeps its
// position in the build output, named after the build.
func Remap(b *manifest.Set, origins []string, dir string, res *kustomization.Resolver) ([]*manifest.Object, map[*manifest.Object]*manifest.Object) {
	out := make([]*manifest.Object, 0, len(b.Objects))
	srcs := map[*manifest.Object]*manifest.Object{}
	for _, o := range b.Objects {
		var src *manifest.Object
		if o.Doc >= 0 && o.Doc < len(origins) && origins[o.Doc] != "" {
			abs := filepath.Clean(filepath.Join(dir, filepath.FromSlash(origins[o.Doc])))
			src = SourceObject(res.Objects(abs), o, -1)
		}
		if src == nil {
			out = append(out, o)
			continue
		}
		r := builtContent(src, o)
		r.Origin = src.File
		out = append(out, r)
		srcs[r] = src
	}
	return out, srcs
}

// builtContent is src (its file, node and the unexported source text
// Locate needs) holding everything the loader read from the built object
// o's content: identity, content, typed forms, decode error and
// placeholders. What the cluster receives is the built object, so a
// placeholder an overlay writes over a base's real value is one, and a
// base's placeholder an overlay fills in is not.
func builtContent(src, o *manifest.Object) *manifest.Object {
	r := *src
	r.APIVersion, r.Kind, r.Name, r.Known = o.APIVersion, o.Kind, o.Name, o.Known
	r.Unmodelled, r.Partial = o.Unmodelled, o.Partial
	r.Content = o.Content
	r.ICSP, r.IDMS, r.ITMS, r.Image, r.MachineConfig = o.ICSP, o.IDMS, o.ITMS, o.Image, o.MachineConfig
	r.ClusterImagePolicy, r.ImagePolicy = o.ClusterImagePolicy, o.ImagePolicy
	r.FeatureGate, r.ClusterVersion, r.MachineConfiguration = o.FeatureGate, o.ClusterVersion, o.MachineConfiguration
	r.DecodeError = o.DecodeError
	r.Placeholders = o.Placeholders
	return &r
}

// SourceObject finds, among the objects of the file o was made from
// (cands), the one it was made from: kustomize keeps the kind but may
// rename the object (namePrefix, nameSuffix). In order: the only object
// of o's kind and name, or among several the one at document doc (the
// index a KRM function runner records; -1 when unknown), else the first;
// the object whose name o's name contains (the longest such name); the
// object of o's kind at document doc; the only object of o's kind. nil when
// none fits.
func SourceObject(cands []*manifest.Object, o *manifest.Object, doc int) *manifest.Object {
	var sameKind, exact []*manifest.Object
	for _, c := range cands {
		if c.Kind == o.Kind {
			sameKind = append(sameKind, c)
			if c.Name == o.Name {
				exact = append(exact, c)
			}
		}
	}
	atDoc := func(list []*manifest.Object) *manifest.Object {
		for _, c := range list {
			if doc >= 0 && c.Doc == doc {
				return c
			}
		}
		return nil
	}
	switch {
	case len(exact) == 1:
		return exact[0]
	case len(exact) > 1:
		if c := atDoc(exact); c != nil {
			return c
		}
		return exact[0]
	}
	var best *manifest.Object
	for _, c := range sameKind {
		if c.Name != "" && strings.Contains(o.Name, c.Name) && (best == nil || len(c.Name) > len(best.Name)) {
			best = c
		}
	}
	if best != nil {
		return best
	}
	if c := atDoc(sameKind); c != nil {
		return c
	}
	if len(sameKind) == 1 {
		return sameKind[0]
	}
	return nil
}
