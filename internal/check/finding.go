package check

import (
	"sort"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// ObjectRef names the object a finding is about.
type ObjectRef struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// Location is one more place involved in a cross-object finding.
type Location struct {
	manifest.Position
	Object ObjectRef `json:"object"`
	Path   string    `json:"path,omitempty"`
}

// Suppression records why a finding is not counted.
type Suppression struct {
	// Kind is "annotation", "comment" or "config".
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// Finding is one thing mirrorlint tells the user.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	manifest.Position
	Object   ObjectRef  `json:"object"`
	Path     string     `json:"path"`
	Related  []Location `json:"related,omitempty"`
	Clusters []string   `json:"clusters,omitempty"`
	// Suppressed is set when a suppression matched; such findings are
	// reported (SARIF lists them) but never fail the run.
	Suppressed *Suppression `json:"suppressed,omitempty"`
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
