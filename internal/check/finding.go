package check

import (
	"sort"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// ObjectRef names the object a finding is about.
type ObjectRef struct {
	Kind string
	Name string
}

// Location is one more place involved in a cross-object finding.
type Location struct {
	manifest.Position
	Object ObjectRef
	Path   string
}

// Suppression records why a finding is not counted.
type Suppression struct {
	// Kind is "annotation", "comment" or "config".
	Kind   string
	Reason string
}

// Finding is one thing a rule or policy reports, with the object it is
// about. Output formats write it in their own shapes; the JSON one is the
// wire form (package wire), which the lint package returns too.
type Finding struct {
	Rule     string
	Severity Severity
	Message  string
	manifest.Position
	Object   ObjectRef
	Path     string
	Related  []Location
	Clusters []string
	// Suppressed is set when a suppression matched; such findings are
	// reported (SARIF lists them) but never fail the run.
	Suppressed *Suppression
}

// Counts tallies unsuppressed findings by severity.
type Counts struct {
	Error      int `json:"error"`
	Warning    int `json:"warning"`
	Info       int `json:"info"`
	Suppressed int `json:"suppressed"`
}

// Count tallies fs.
func Count(fs []Finding) Counts {
	var c Counts
	for _, f := range fs {
		switch {
		case f.Suppressed != nil:
			c.Suppressed++
		case f.Severity == Error:
			c.Error++
		case f.Severity == Warning:
			c.Warning++
		case f.Severity == Info:
			c.Info++
		}
	}
	return c
}

// Fails reports whether any unsuppressed finding is at or above threshold.
func Fails(fs []Finding, threshold Severity) bool {
	for _, f := range fs {
		if f.Suppressed == nil && f.Severity != Off && f.Severity >= threshold {
			return true
		}
	}
	return false
}

// Sort orders findings by file, line, column, rule, message: the order every
// output format prints them in.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}
