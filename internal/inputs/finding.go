package inputs

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Finding is one problem with an input, placed at the value that causes
// it. Rule is the id of the rule that reports it; Component names who
// refuses or acts on it (openshift-install, assisted-service, ...).
type Finding struct {
	Pos       manifest.Position
	Severity  check.Severity
	Rule      string
	Component string
	Message   string
	// At is the exact place inside an embedded document (a JSON string)
	// when Pos is the key holding it; zero otherwise.
	At manifest.Position
	// OfSpoke marks a finding about how a ZTP spoke is checked (its
	// release), which only a read of every object the spoke reads can
	// tell: a cluster of the tree whose spokes are linted apart leaves it
	// to them (cluster.Settings.SpokesApart).
	OfSpoke bool
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s: %s [%s]", f.Pos, f.Severity, f.Message, f.Rule)
}

type findings []Finding

func (fs *findings) add(pos manifest.Position, sev check.Severity, rule, component, format string, args ...any) {
	*fs = append(*fs, Finding{Pos: pos, Severity: sev, Rule: rule, Component: component, Message: fmt.Sprintf(format, args...)})
}

// place is where a finding about a value goes, and the value's own place
// when that is not it (a value inside a JSON string, reported on its key).
type place struct{ pos, at manifest.Position }

// addAt adds a finding at pl.
func (fs *findings) addAt(pl place, sev check.Severity, rule, component, format string, args ...any) {
	fs.add(pl.pos, sev, rule, component, format, args...)
	(*fs)[len(*fs)-1].At = pl.at
}

// sortFindings orders by file, line, column, then rule.
func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column), cmp.Compare(a.Rule, b.Rule))
	})
}

// RuleSiteLabels reports site labels that are not a map of strings.
const RuleSiteLabels = "site-labels"
