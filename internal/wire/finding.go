// Package wire holds the JSON form of findings: the one type
// `mirrorlint lint --format json` prints and the lint package returns
// (as lint.Finding), converted once from the findings the rules report.
package wire

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

// Finding is one thing mirrorlint reports. Its JSON form is the one
// `mirrorlint lint --format json` prints.
type Finding struct {
	// Rule is the rule id (see lint.Linter.Rules), e.g. "source-format".
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	// Position is where the offending value is written. File is empty
	// for a finding about no file (the release image given as an option).
	Position
	// Object is the object the finding is about (empty for a file that
	// does not parse), Path the field inside it, in the dotted form
	// "spec.imageDigestMirrors[0].source".
	Object ObjectRef `json:"object"`
	Path   string    `json:"path"`
	// Related are the other places a cross-object finding involves.
	Related []Location `json:"related,omitempty"`
	// Clusters names the clusters the finding affects when the tree holds
	// several.
	Clusters []string `json:"clusters,omitempty"`
	// Suppressed is set when a suppression matched: such a finding is
	// reported but never makes a run fail.
	Suppressed *Suppression `json:"suppressed,omitempty"`
}

// Position is a place in a file; lines and columns count from 1, and an
// end of 0 means unknown.
type Position struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
}

// String is "file:line:column", or the file alone when there is no line.
func (p Position) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// ObjectRef names an object by kind and name.
type ObjectRef struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// Location is one more place involved in a cross-object finding.
type Location struct {
	Position
	Object ObjectRef `json:"object"`
	Path   string    `json:"path,omitempty"`
}

// Suppression says why a finding does not count.
type Suppression struct {
	// Kind is "annotation", "comment" or "config".
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// FromCheck is the wire form of a finding the rules or policies reported;
// rename, when not nil, changes each position (the name of a stream).
func FromCheck(f check.Finding, rename func(Position) Position) Finding {
	if rename == nil {
		rename = func(p Position) Position { return p }
	}
	out := Finding{
		Rule:     f.Rule,
		Severity: FromCheckSeverity(f.Severity),
		Message:  f.Message,
		Position: rename(Position(f.Position)),
		Object:   ObjectRef(f.Object),
		Path:     f.Path,
		Clusters: f.Clusters,
	}
	for _, r := range f.Related {
		out.Related = append(out.Related, Location{Position: rename(Position(r.Position)), Object: ObjectRef(r.Object), Path: r.Path})
	}
	if f.Suppressed != nil {
		out.Suppressed = &Suppression{Kind: f.Suppressed.Kind, Reason: f.Suppressed.Reason}
	}
	return out
}

// FromCheckSeverity is the wire form of a finding's severity (a reported
// finding is never off).
func FromCheckSeverity(s check.Severity) Severity {
	switch s {
	case check.Error:
		return Error
	case check.Warning:
		return Warning
	}
	return Info
}
