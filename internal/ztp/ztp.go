// Package ztp expands the two generators telco fleets write their policies
// with, in-process and without running any plugin: the ZTP PolicyGenTemplate
// (ran.openshift.io/v1) and the ACM PolicyGenerator
// (policy.open-cluster-management.io/v1). Each produces Policies whose
// objects are source CRs (files of a source-crs directory, or any manifest
// for a PolicyGenerator) with the generator entry's values merged onto them,
// the way the generators themselves merge: index by index for a
// PolicyGenTemplate, as a kustomize strategic-merge patch for a
// PolicyGenerator.
//
// Every node of a produced object is a copy of the node that wrote its
// value, with that node's line and column, and Object.FileOf names the file
// it sits in: a value the generator entry sets points at the generator's
// line, a value inherited from the source CR at the source CR's.
package ztp

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Object is one object a generator produces.
type Object struct {
	// Node is the merged object; its nodes are copies carrying the line
	// and column of the value they came from.
	Node *yaml.Node
	// Files names the file of every node of Node.
	Files map[*yaml.Node]string
	// Source is the source CR or manifest file the object starts from.
	Source string
	// At is the generator entry's fileName or path value, where a
	// finding about the object as a whole belongs.
	At *yaml.Node
	// ComplianceType is musthave, mustonlyhave or mustnothave.
	ComplianceType string
}

// FileOf names the file n sits in; def when n is not one of the object's.
func (o *Object) FileOf(n *yaml.Node, def string) string {
	if f, ok := o.Files[n]; ok {
		return f
	}
	return def
}

// Policy is one policy a generator produces, or the plain objects of a
// PolicyGenTemplate written without a policy (Name empty): those are
// resources of the kustomization that runs the generator.
type Policy struct {
	Name      string
	Namespace string
	// At is the line that names the policy (policyName, name).
	At *yaml.Node
	// Selector is which managed clusters the policy is bound to.
	Selector Selector
	Objects  []*Object
}

// Ref is how the policy is named elsewhere: Policy/<namespace>/<name>.
func (p *Policy) Ref() string {
	if p.Namespace == "" {
		return "Policy/" + p.Name
	}
	return "Policy/" + p.Namespace + "/" + p.Name
}

// Problem is a generator input the real generator would refuse, or a
// source the expansion could not read.
type Problem struct {
	File    string
	Line    int
	Column  int
	Code    string
	Message string
	// SourceCR is set on a CodeSourceMissing problem for a source CR that
	// is not where the generator and the config put them: the misses of
	// one generator from the same places are one gap (a hub repository
	// taking its source CRs from the ZTP container, or keeping them in one
	// directory above its generators), which SourceCRsMissing tells at
	// once.
	SourceCR *MissingSourceCR
}

// MissingSourceCR is a source CR that was looked for and not found.
type MissingSourceCR struct {
	Name string // as the entry names it
	// Dir is the source-crs directory the generator reads (that of the
	// kustomization running it, see Dirs.Dir), as shown.
	Dir string
	// Configured: the config's sourceCRs directories were searched too.
	Configured bool
	// Near is a source-crs directory where the generator does not look
	// that holds it (see Dirs.nearby), as shown; "" when none does.
	Near string
	// Path: a PolicyGenerator manifest path into source-crs/, which the
	// policy generator refuses when it names no file; else a
	// PolicyGenTemplate fileName, which the ZTP container reads from its
	// own copy.
	Path bool
}

// Problem codes.
const (
	// CodeSourceMissing: a source CR or manifest path names no file.
	CodeSourceMissing = "source-cr-missing"
	// CodeInvalid: the generator would refuse its input.
	CodeInvalid = "generator-invalid"
	// CodeLimit: what a path delivers was not read whole, stopped at one
	// of the run's limits.
	CodeLimit = "limit-exceeded"
)

// File is one file a Source returns.
type File struct {
	Name string // as positions show it
	Data []byte
}

// Source reads what a generator refers to.
type Source interface {
	// SourceCR reads a PolicyGenTemplate's fileName from the source CR
	// directories; an error wrapping fs.ErrNotExist when none holds it.
	SourceCR(name string) (File, error)
	// Manifests reads a PolicyGenerator manifest path, relative to the
	// directory the generator runs in: the file, or the YAML files of a
	// directory (not its subdirectories); an error wrapping
	// ErrKustomization when the directory holds a kustomization.
	Manifests(path string) ([]File, error)
	// Kustomization builds a manifest path whose directory holds a
	// kustomization, as the policy generator does (see kustomized.go).
	Kustomization(path string) (Kustomized, error)
}

// Generator names the kinds this package expands; "" when the document is
// none of them.
func Generator(apiVersion, kind string) string {
	switch {
	case kind == "PolicyGenTemplate" && hasGroup(apiVersion, "ran.openshift.io"):
		return kind
	case kind == "PolicyGenerator" && hasGroup(apiVersion, "policy.open-cluster-management.io"):
		return kind
	}
	return ""
}

func hasGroup(apiVersion, group string) bool {
	return len(apiVersion) > len(group) && apiVersion[:len(group)] == group && apiVersion[len(group)] == '/'
}

// Expand expands one generator document (its mapping node) of file.
func Expand(file string, n *yaml.Node, src Source) ([]*Policy, []Problem) {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	e := &expander{file: file, src: src}
	switch Generator(scalar(n, "apiVersion"), scalar(n, "kind")) {
	case "PolicyGenTemplate":
		e.policyGenTemplate(n)
	case "PolicyGenerator":
		e.policyGenerator(n)
	}
	return e.policies, e.problems
}

type expander struct {
	file     string
	src      Source
	policies []*Policy
	problems []Problem
}

func (e *expander) problem(at *yaml.Node, code, msg string) {
	p := Problem{File: e.file, Code: code, Message: msg}
	if at != nil {
		p.Line, p.Column = at.Line, at.Column
	}
	e.problems = append(e.problems, p)
}
