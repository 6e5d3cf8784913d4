// Package manifest reads a manifests tree (files, directories, or a stream)
// and returns the mirror-related objects it holds, each decoded into the real
// openshift/api type and kept with the YAML node it came from, so that any
// field can be traced back to file:line:column.
package manifest

import (
	"fmt"
	"strconv"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/ztp"
)

// Kind names the object kinds mirrorlint understands.
type Kind string

const (
	KindICSP          Kind = "ImageContentSourcePolicy"
	KindIDMS          Kind = "ImageDigestMirrorSet"
	KindITMS          Kind = "ImageTagMirrorSet"
	KindImage         Kind = "Image"
	KindMachineConfig Kind = "MachineConfig"
	// The signature policy kinds and the two cluster objects that decide
	// how they apply: FeatureGate/cluster (the feature set, which serves the
	// v1alpha1 policies on 4.18–4.19) and ClusterVersion/version (its
	// overrides can turn off the default "openshift" ClusterImagePolicy).
	KindClusterImagePolicy Kind = "ClusterImagePolicy"
	KindImagePolicy        Kind = "ImagePolicy"
	KindFeatureGate        Kind = "FeatureGate"
	KindClusterVersion     Kind = "ClusterVersion"
	// MachineConfiguration/cluster carries the node-disruption policies
	// the daemon follows.
	KindMachineConfiguration Kind = "MachineConfiguration"
)

// APIVersionV1Alpha1 is the apiVersion of ClusterImagePolicy and
// ImagePolicy before they went GA in 4.20 (4.18–4.19 TechPreviewNoUpgrade
// clusters). The loader decodes both into the config/v1 types; which one a
// cluster serves depends on its release and feature set, so that is
// decided later (check.BuildInput, the api-version-kind rule).
const APIVersionV1Alpha1 = "config.openshift.io/v1alpha1"

// APIVersion returns the only apiVersion the API server serves the kind under.
func (k Kind) APIVersion() string {
	switch k {
	case KindICSP:
		return "operator.openshift.io/v1alpha1"
	case KindIDMS, KindITMS, KindImage, KindClusterImagePolicy, KindImagePolicy, KindFeatureGate, KindClusterVersion:
		return "config.openshift.io/v1"
	case KindMachineConfig:
		return "machineconfiguration.openshift.io/v1"
	case KindMachineConfiguration:
		return "operator.openshift.io/v1"
	}
	return ""
}

// Position is a place in a source file. Line and Column are 1-based;
// EndLine/EndColumn are 0 when unknown.
type Position struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
}

func (p Position) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// Path addresses a field inside an object: each element is a string (a
// mapping key) or an int (a sequence index).
type Path []any

// ParsePath reads the dotted form produced by Path.String, e.g.
// "spec.imageDigestMirrors[0].mirrors[1]".
func ParsePath(s string) Path {
	var p Path
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			continue
		}
		for {
			open := strings.IndexByte(part, '[')
			if open < 0 {
				p = append(p, part)
				break
			}
			if open > 0 {
				p = append(p, part[:open])
			}
			end := strings.IndexByte(part[open:], ']')
			if end < 0 {
				p = append(p, part[open:])
				break
			}
			if n, err := strconv.Atoi(part[open+1 : open+end]); err == nil {
				p = append(p, n)
			} else {
				p = append(p, part[open+1:open+end])
			}
			part = part[open+end+1:]
			if part == "" {
				break
			}
		}
	}
	return p
}

func (p Path) String() string {
	var b strings.Builder
	for _, e := range p {
		switch v := e.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", v)
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

// Child returns a copy of p extended by elems.
func (p Path) Child(elems ...any) Path {
	out := make(Path, 0, len(p)+len(elems))
	return append(append(out, p...), elems...)
}

// Object is one Kubernetes object whose kind mirrorlint cares about.
// Exactly one of the typed pointers is set when Known is true.
type Object struct {
	APIVersion string
	Kind       Kind
	Name       string
	// Known is true when apiVersion+kind is one the cluster serves; an
	// object with a mirror kind under a wrong apiVersion is kept (Known
	// false) so rules can say so, but the renderer ignores it.
	Known bool
	// Unmodelled marks an object of a kind mirrorlint has no type for,
	// kept on request (Options.Unmodelled): Known is false. Partial is set
	// when only its identity and image fields were kept: Node and Content
	// hold apiVersion, kind, metadata and the image fields, nothing else.
	Unmodelled bool
	Partial    bool

	// File is the path as given on the command line joined with the path
	// inside it (StreamName for a stream). Origin is the file named by a
	// config.kubernetes.io/origin or path annotation, when one was present.
	File   string
	Origin string
	// DeliveredBy names the policy that delivers the object to its
	// clusters ("Policy/<namespace>/<name>", see acm.go); empty for an
	// object applied as it is.
	DeliveredBy string
	// Created marks an object no file holds: a component writes it from a
	// mirror input (the installer's ImageDigestMirrorSet or
	// ImageContentSourcePolicies of an install-config or a ZTP spoke,
	// HyperShift's of a HostedCluster), placed at the values it copies
	// (see Derived). What a rule would advise the object's author has no
	// author to reach.
	Created bool
	// BoundTo says in words which managed clusters that policy is bound
	// to ("bound to the managed clusters labelled common=true"), when the
	// generator that wrote it says (package ztp); "" when unknown.
	BoundTo string
	// Binding is that policy's selector of managed clusters, when the
	// generator that wrote it says (nil otherwise): which ZTP sites of
	// the tree get the object.
	Binding *ztp.Selector
	// Doc is the 0-based index of the YAML document in File; Item the index
	// inside a List (-1 when not from a List).
	Doc  int
	Item int

	// Node is the object's mapping node; line/column are file-absolute.
	Node *yaml.Node
	// Content is the object as plain data (maps, slices, scalars), as the
	// API server would see it after YAML→JSON conversion.
	Content map[string]any

	ICSP          *operatorv1alpha1.ImageContentSourcePolicy
	IDMS          *configv1.ImageDigestMirrorSet
	ITMS          *configv1.ImageTagMirrorSet
	Image         *configv1.Image
	MachineConfig *mcfgv1.MachineConfig
	// ClusterImagePolicy and ImagePolicy hold the config/v1 form, also for
	// an object written as config.openshift.io/v1alpha1 (converted).
	ClusterImagePolicy   *configv1.ClusterImagePolicy
	ImagePolicy          *configv1.ImagePolicy
	FeatureGate          *configv1.FeatureGate
	ClusterVersion       *configv1.ClusterVersion
	MachineConfiguration *operatorv1.MachineConfiguration

	// DecodeError is set when the object has the served apiVersion and kind
	// but does not decode into the API type (a list where an object is
	// required...): Known is then false, the typed pointer nil, and one
	// "decode-error" Problem per refused value carries each message (they
	// are joined here with newlines, in file order). Rules telling
	// "wrong apiVersion" apart should check APIVersion, not only Known.
	DecodeError string

	// Placeholders are the values still holding a placeholder of a
	// reference configuration (<registry.example.com:8443>/x), sorted by
	// path; see placeholder.go.
	Placeholders []Placeholder

	// src is the text of File, used to find where scalars end.
	src *source
	// marks are File's lines holding IgnoreMarker, nil when the object
	// was not read from File.
	marks *marks
	// spans locates the nodes that sit in another file than File: the
	// values a generated object inherits from its source CR.
	spans map[*yaml.Node]nodeSpan
	// inferred is set when the apiVersion and kind in Content were taken
	// from the List holding the object (its node names no kind of its
	// own): a cache entry restores Content from the node and this.
	inferred bool
}

// Ref is a short human name: "ImageDigestMirrorSet/foo".
func (o *Object) Ref() string { return string(o.Kind) + "/" + o.Name }

// CodeParseError is the Problem code of a file YAML cannot read.
const CodeParseError = "parse-error"

// Problem is a positioned loading error: a file that does not parse, an
// object that does not decode, a file skipped for its size.
type Problem struct {
	Pos     Position `json:"position"`
	Message string   `json:"message"`
	// Code is a stable identifier: "parse-error", "decode-error",
	// "file-too-large", "binary-file", "symlink-outside", "read-error", ...
	Code string `json:"code"`
	// Warning marks input skipped on purpose rather than input that could
	// not be read: a symlink leaving the tree ("symlink-outside") or
	// looping ("symlink-loop"), whose target is not part of the tree
	// anyway; mirror objects wrapped in an OpenShift Template ("template"),
	// which the cluster does not get from the Template as written; a
	// template file such as icsp.yaml.j2 naming a mirror kind
	// ("template-file"), which is not YAML until rendered. Everything else stays an error, because what could not be
	// read may hold objects the cluster would get: a file over the size
	// limit, a broken symlink named like a manifest, binary or malformed
	// content. Consumers may report warnings without failing (render
	// goes on; lint reports them with severity warning).
	Warning bool `json:"warning,omitempty"`
	// Incomplete marks a warning whose cause leaves part of a cluster's
	// input unknown (a kustomization entry no build holds, see
	// CodeNotBuilt): lint says so and checks the rest, but nothing that
	// takes the whole input (a render, a drain verdict, a pull order) is
	// given for the cluster.
	Incomplete bool `json:"incomplete,omitempty"`
	// Related are other places the problem is about (the other entries of
	// a generator naming source CRs missing from the same directory).
	Related []Position `json:"related,omitempty"`
}

func (p Problem) String() string { return p.Pos.String() + ": " + p.Message }

// UniqueProblems joins lists of problems keeping each problem once (the
// same code at the same place with the same message), in the order first
// met: a file read by several clusters, or by an overlay's build and its
// base's, is reported once.
func UniqueProblems(lists ...[]Problem) []Problem {
	var out []Problem
	seen := map[string]bool{}
	for _, ps := range lists {
		for _, p := range ps {
			if k := p.Code + "\x00" + p.String(); !seen[k] {
				seen[k] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Set is everything read from one load.
type Set struct {
	Objects  []*Object
	Problems []Problem
	// Files lists every file that was read, in walk order.
	Files []string
	// Expansions maps a file holding a PolicyGenTemplate or PolicyGenerator
	// expanded with its sources to what the expansion read besides it.
	Expansions map[string]Expansion
}

// Expansion is what the expansion of a file's generators read besides
// the file: the files (source CRs, manifests), and the problems it placed
// in them (a policy template in a manifest). A manifest lying beside the
// generator's kustomization without being listed by it is applied through
// the generator, not left out; these are its problems as the generator
// reads it.
type Expansion struct {
	Files    []string
	Problems []Problem
}

// Errors returns the problems that make a render or a migration
// incomplete: the failures, and the warnings that leave part of the input
// unknown (Problem.Incomplete); not the other warnings (input skipped on
// purpose).
func Errors(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if !p.Warning || p.Incomplete {
			out = append(out, p)
		}
	}
	return out
}
