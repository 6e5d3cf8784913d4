// Package migrate turns ImageContentSourcePolicy objects into
// ImageDigestMirrorSets the way `oc adm migrate icsp` does, but so that the
// output is reviewable in Git: the IDMS keeps the ICSP's name, server-set
// metadata is dropped, and the result is the same for the same input.
//
// The conversion works on the YAML node tree, so comments on the object and
// its entries travel with it; documents that are not ICSPs are kept as they
// were, byte for byte.
package migrate

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const (
	icspAPIVersion = "operator.openshift.io/v1alpha1"
	icspKind       = "ImageContentSourcePolicy"
	idmsAPIVersion = "config.openshift.io/v1"
	idmsKind       = "ImageDigestMirrorSet"
)

// serverSet are the metadata fields the API server fills in. A manifest
// exported from a cluster carries them; an IDMS created from it must not
// (a stale resourceVersion or uid makes the apply fail or target nothing).
var serverSet = map[string]bool{
	"resourceVersion": true, "uid": true, "creationTimestamp": true, "generation": true,
	"managedFields": true, "selfLink": true, "deletionTimestamp": true, "deletionGracePeriodSeconds": true,
}

// lastApplied describes the ICSP, not the IDMS; kubectl would diff against it.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// IsICSP reports whether n (a mapping) is an ICSP as the API server serves it.
func IsICSP(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.MappingNode &&
		scalar(n, "apiVersion") == icspAPIVersion && scalar(n, "kind") == icspKind
}

// Convert returns the IDMS for the ICSP mapping node icsp, leaving icsp
// untouched: apiVersion, kind, metadata (minus server-set fields), and
// spec.imageDigestMirrors with each entry's source and mirrors, in that
// order. No mirrorSourcePolicy is set, which keeps what the ICSP meant (the
// source stays contactable). Scalar and collection styles are reset so the
// output does not depend on how the input was written.
//
// Tags and digests in sources and mirrors, which the ImageDigestMirrorSet
// pattern refuses, are removed, and the entries that then name the same
// source merged (unpinEntries); note says so, "" when there were none. An
// IDMS the API server would still refuse is an error (*RefusedError): a
// migration never writes what the cluster refuses.
func Convert(icsp *yaml.Node) (out *yaml.Node, note string, err error) {
	out, note, err = convert(icsp)
	if err != nil {
		return nil, "", err
	}
	if err := checkAccepted(out); err != nil {
		return nil, "", err
	}
	return out, note, nil
}

func convert(icsp *yaml.Node) (*yaml.Node, string, error) {
	note := ""
	if icsp.Kind != yaml.MappingNode {
		return nil, "", fmt.Errorf("line %d: not a mapping", icsp.Line)
	}
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: icsp.HeadComment, FootComment: icsp.FootComment}
	add := func(key *yaml.Node, value *yaml.Node) {
		out.Content = append(out.Content, key, value)
	}
	k, _ := entry(icsp, "apiVersion")
	add(keyLike(k, "apiVersion"), str(idmsAPIVersion))
	k, _ = entry(icsp, "kind")
	add(keyLike(k, "kind"), str(idmsKind))
	if k, v := entry(icsp, "metadata"); v != nil {
		if v.Kind != yaml.MappingNode {
			return nil, "", fmt.Errorf("line %d: metadata is not a mapping", v.Line)
		}
		add(clone(k), metadata(v))
	}
	spec := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	k, v := entry(icsp, "spec")
	add(keyLike(k, "spec"), spec)
	if v != nil {
		if v.Kind != yaml.MappingNode {
			return nil, "", fmt.Errorf("line %d: spec is not a mapping", v.Line)
		}
		spec.HeadComment, spec.LineComment, spec.FootComment = v.HeadComment, v.LineComment, v.FootComment
		if rk, rv := entry(v, "repositoryDigestMirrors"); rv != nil {
			list, err := mirrors(rv)
			if err != nil {
				return nil, "", err
			}
			_, md := entry(icsp, "metadata")
			note = unpinEntries(list, scalar(md, "name"))
			nk := keyLike(rk, "imageDigestMirrors")
			spec.Content = append(spec.Content, nk, list)
		}
	}
	plain(out)
	return out, note, nil
}

func metadata(m *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: m.HeadComment, LineComment: m.LineComment, FootComment: m.FootComment}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch {
		case serverSet[k.Value]:
			continue
		case k.Value == "annotations" && v.Kind == yaml.MappingNode:
			ann := clone(v)
			ann.Content = nil
			for j := 0; j+1 < len(v.Content); j += 2 {
				if v.Content[j].Value != lastApplied {
					ann.Content = append(ann.Content, clone(v.Content[j]), clone(v.Content[j+1]))
				}
			}
			if len(ann.Content) == 0 {
				continue
			}
			out.Content = append(out.Content, clone(k), ann)
			continue
		}
		out.Content = append(out.Content, clone(k), clone(v))
	}
	return out
}

// mirrors converts repositoryDigestMirrors entries: only source and mirrors
// exist in the ICSP schema (anything else would be pruned), so only they
// are carried over.
func mirrors(seq *yaml.Node) (*yaml.Node, error) {
	if seq.Kind != yaml.SequenceNode {
		if seq.Tag == "!!null" {
			return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}, nil
		}
		return nil, fmt.Errorf("line %d: spec.repositoryDigestMirrors is not a list", seq.Line)
	}
	out := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", HeadComment: seq.HeadComment, LineComment: seq.LineComment, FootComment: seq.FootComment}
	for _, item := range seq.Content {
		if item.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("line %d: a repositoryDigestMirrors entry is not a mapping", item.Line)
		}
		e := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: item.HeadComment, LineComment: item.LineComment, FootComment: item.FootComment}
		for _, name := range []string{"source", "mirrors"} {
			if k, v := entry(item, name); v != nil {
				e.Content = append(e.Content, clone(k), clone(v))
			}
		}
		out.Content = append(out.Content, e)
	}
	return out, nil
}

// entry returns the key and value nodes of the last key named name (the
// last one wins, as in the YAML-to-JSON conversion kubectl does).
func entry(m *yaml.Node, name string) (key, value *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			key, value = m.Content[i], m.Content[i+1]
		}
	}
	return key, value
}

func scalar(m *yaml.Node, name string) string {
	_, v := entry(m, name)
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// keyLike makes a key named name that keeps the comments of k, if any.
func keyLike(k *yaml.Node, name string) *yaml.Node {
	n := str(name)
	if k != nil {
		n.HeadComment, n.LineComment, n.FootComment = k.HeadComment, k.LineComment, k.FootComment
	}
	return n
}

// clone deep-copies n; aliases are expanded so the copy stands alone.
func clone(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return clone(n.Alias)
	}
	c := *n
	c.Anchor = ""
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, ch := range n.Content {
		c.Content[i] = clone(ch)
	}
	return &c
}

// plain resets styles: block collections, plain scalars wherever the
// encoder can keep the value's type (it quotes the rest itself), literal
// blocks for multi-line strings.
func plain(n *yaml.Node) {
	n.Style = 0
	if n.Kind == yaml.MappingNode {
		// A comment after a flow collection ("mirrors: [a]  # why") is the
		// collection's line comment; once the collection is a block it
		// belongs on the key's line.
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind != yaml.ScalarNode && v.LineComment != "" && k.LineComment == "" {
				k.LineComment, v.LineComment = v.LineComment, ""
			}
		}
	}
	for _, c := range n.Content {
		plain(c)
	}
}
