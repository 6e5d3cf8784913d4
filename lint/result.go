package lint

import "github.com/mirrorlint/mirrorlint/render"

// Result is one run over a tree or a stream.
type Result struct {
	// Findings are sorted by file, line, column and rule.
	Findings []Finding
	// Clusters are the clusters linted, in the order they were found.
	Clusters []Cluster
}

// Cluster is one cluster of the tree and what MCO makes of it.
type Cluster struct {
	// Name is the cluster's name: its directory relative to the tree, or
	// the name the config file gives it; empty when the tree is a single
	// cluster.
	Name string
	// Output is the render, nil when MCO refuses (see Refusal), when a
	// component before MCO refuses the input (see Stopped) or when the
	// cluster's input could not all be read (see Unreadable): a render of
	// what did load would not be what the nodes get.
	Output *render.Output
	// Refusal is MCO's refusal, nil when it renders.
	Refusal *render.Refusal
	// Stopped is a component refusing the input before MCO sees it, so
	// that the nodes get nothing from it (HyperShift stops a NodePool whose
	// config holds an ImageTagMirrorSet): the refused value, and why.
	Stopped *Problem
	// Unreadable is the first input of the cluster that did not load
	// (where, and why), nil when all did. The findings say more.
	Unreadable *Problem
}

// Problem is an input that did not load: where it is and why.
type Problem struct {
	Position
	Message string
}

// String is "file:line:column: message".
func (p Problem) String() string { return p.Position.String() + ": " + p.Message }

// Fails reports whether an unsuppressed finding is at or above threshold.
func (r *Result) Fails(threshold Severity) bool {
	for _, f := range r.Findings {
		if f.Suppressed == nil && f.Severity >= threshold {
			return true
		}
	}
	return false
}
