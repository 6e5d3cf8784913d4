package ndp

import "slices"

// Verdict words, from least to most disruptive: what `diff` reports as a
// cluster's action.
const (
	VerdictNone   = "none"   // only None actions, or no file changes
	VerdictReload = "reload" // service reloads/restarts, DaemonReload or a safe Special: no drain
	VerdictDrain  = "drain"  // drained, not rebooted
	VerdictReboot = "reboot" // drained and rebooted
)

// FileMatch is how one changed file was decided.
type FileMatch struct {
	File string
	// Rule is the policy entry that matched; nil when none did (the file
	// reboots the node).
	Rule *FileRule
}

// Actions are the file's actions: the rule's, or Reboot without one.
func (m FileMatch) Actions() []Action {
	if m.Rule == nil {
		return []Action{{Type: Reboot}}
	}
	return m.Rule.Actions
}

// Decision is what the daemon does for one update.
type Decision struct {
	// Matches has one entry per changed file, in the order given.
	Matches []FileMatch
	// Actions is the daemon's final list, in the order it runs them.
	Actions []Action
	// Drain is the daemon's drain decision.
	Drain bool
	// SpecialChecked is set when the list holds Special and no Reboot or
	// Drain: the drain then came from the registries.conf safety check
	// (SpecialOverridden: skipped by the drain-override ConfigMap).
	SpecialChecked    bool
	SpecialOverridden bool
}

// Decide is the daemon's calculation for an update that changes files
// (MCO's calculatePostConfigChangeNodeDisruptionActionFromMCDiffs and
// isDrainRequiredForNodeDisruptionActions). registriesSafe is whether the
// registries.conf change is one the daemon considers safe (always true when
// that file does not change); overrideDrain is the 4.17–4.19 ConfigMap
// image-registry-override-drain, which turns the Special drain off.
//
// The daemon walks the changed files in Go map order, so the order of its
// list varies between runs; Decide walks them as given (callers sort).
func (p Policies) Decide(changed []string, registriesSafe, overrideDrain bool) Decision {
	d := Decision{}
	var actions []Action
	rebooted := false
	for _, f := range changed {
		m := FileMatch{File: f}
		if r, ok := p.Match(f); ok {
			m.Rule = &r
		} else {
			rebooted = true
		}
		d.Matches = append(d.Matches, m)
		actions = append(actions, m.Actions()...)
	}
	switch {
	case len(changed) == 0:
		d.Actions = []Action{{Type: None}}
	case rebooted || has(actions, Reboot):
		d.Actions = []Action{{Type: Reboot}}
	case has(actions, None):
		d.Actions = slices.DeleteFunc(actions, func(a Action) bool { return a.Type == None })
		if len(d.Actions) == 0 {
			d.Actions = []Action{{Type: None}}
		}
	default:
		d.Actions = actions
	}
	switch {
	case has(d.Actions, Reboot), has(d.Actions, Drain):
		d.Drain = true
	case has(d.Actions, Special):
		d.SpecialChecked = true
		d.SpecialOverridden = overrideDrain && !registriesSafe
		d.Drain = !registriesSafe && !overrideDrain
	}
	return d
}

// Verdict is the decision in one word.
func (d Decision) Verdict() string {
	switch {
	case has(d.Actions, Reboot):
		return VerdictReboot
	case d.Drain:
		return VerdictDrain
	}
	for _, a := range d.Actions {
		if a.Type != None {
			return VerdictReload
		}
	}
	return VerdictNone
}

func has(actions []Action, t string) bool {
	return slices.ContainsFunc(actions, func(a Action) bool { return a.Type == t })
}
