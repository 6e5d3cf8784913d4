package lint

import "github.com/mirrorlint/mirrorlint/internal/wire"

// The finding types. They are the JSON wire format of
// `mirrorlint lint --format json`, defined once (in an internal package
// the command's JSON output shares) and named here for importers.
type (
	// Finding is one thing mirrorlint reports: the rule, its severity and
	// message, the Position of the offending value, the object and the
	// field path inside it ("spec.imageDigestMirrors[0].source"), the
	// other places a cross-object finding involves (Related), the
	// clusters it affects when the tree holds several, and the
	// suppression that matched it, if any (such a finding never makes a
	// run fail). Its JSON form is the one the command prints.
	Finding = wire.Finding
	// Position is a place in a file; lines and columns count from 1, and
	// an end of 0 means unknown. String gives "file:line:column".
	Position = wire.Position
	// ObjectRef names an object by kind and name.
	ObjectRef = wire.ObjectRef
	// Location is one more place involved in a cross-object finding.
	Location = wire.Location
	// Suppression says why a finding does not count: Kind is
	// "annotation", "comment" or "config".
	Suppression = wire.Suppression
	// Severity orders findings: Info < Warning < Error. It marshals as
	// its name.
	Severity = wire.Severity
)

// The severities, from least to most serious.
const (
	Info    = wire.Info
	Warning = wire.Warning
	Error   = wire.Error
)

// ParseSeverity reads "info", "warning" (or "warn") and "error".
func ParseSeverity(s string) (Severity, error) { return wire.ParseSeverity(s) }

// Rule describes one rule a Linter can report.
type Rule struct {
	ID string
	// Severity is the default; the config file can change it.
	Severity Severity
	Summary  string
	// Doc explains what the rule detects, why it matters and how to fix
	// it, in Markdown.
	Doc string
}
