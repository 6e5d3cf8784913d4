// Package drain predicts what a node does when the rendered registry files
// change: reload CRI-O only, or cordon and drain (and possibly reboot). It
// follows the Machine Config Daemon's default NodeDisruptionPolicy:
// registries.conf is "Special" (drain only for unsafe changes), policy.json
// only reloads CRI-O, the search-registries drop-in has no policy of its
// own and therefore reboots.
package drain

import (
	"bytes"

	"github.com/mirrorlint/mirrorlint/internal/render"
)

// File paths as they appear in Reasons.
const (
	RegistriesConfPath = "/etc/containers/registries.conf"
	SearchDropInPath   = render.SearchDropInPath
	PolicyJSONPath     = render.PolicyJSONPath
)

// Verdict is the node's reaction to going from one rendering to another.
type Verdict struct {
	// Drain is what the MCD decides: cordon and drain before applying.
	Drain bool
	// Reboot is set when a changed file falls under the default Reboot
	// action (the search drop-in); it implies Drain.
	Reboot bool
	// Reasons lists every change found, safe ones included (Drain false).
	Reasons []Reason
}

// Reason is one change and its consequence.
type Reason struct {
	File    string
	Scope   string // registry scope (prefix, else location), "" when file-wide
	Message string
	Drain   bool // whether this change on its own forces a drain
}

// Compare returns the verdict for a node moving from old to new. A nil
// Output stands for "MCO writes nothing": the template registries.conf and
// no drop-in. (When MCO refuses to render, nodes keep the previous files:
// pass the previous Output as new.)
func Compare(old, new *render.Output) Verdict {
	oldConf, oldSearch := files(old)
	newConf, newSearch := files(new)
	var v Verdict

	if !bytes.Equal(oldConf, newConf) {
		reasons := registriesChanges(oldConf, newConf)
		if len(reasons) == 0 {
			reasons = []Reason{{File: RegistriesConfPath, Message: "registries.conf rewritten with equivalent content; CRI-O is reloaded"}}
		}
		v.Reasons = append(v.Reasons, reasons...)
	}

	switch {
	case oldSearch == nil && newSearch != nil:
		v.Reasons = append(v.Reasons, Reason{File: SearchDropInPath, Drain: true,
			Message: "search-registries drop-in added: no NodeDisruptionPolicy covers it, so nodes drain and reboot"})
		v.Reboot = true
	case oldSearch != nil && newSearch == nil:
		v.Reasons = append(v.Reasons, Reason{File: SearchDropInPath, Drain: true,
			Message: "search-registries drop-in removed: nodes drain and reboot"})
		v.Reboot = true
	case !bytes.Equal(oldSearch, newSearch):
		v.Reasons = append(v.Reasons, Reason{File: SearchDropInPath, Drain: true,
			Message: "search-registries drop-in changed: nodes drain and reboot"})
		v.Reboot = true
	}

	// policy.json falls under the default NodeDisruptionPolicy's "reload
	// crio" action: whatever changed in it, the node is not drained.
	// Without a generated file the node keeps the template, so a file
	// written or dropped is a change too.
	if oldPolicy, newPolicy := policyOf(old), policyOf(new); !bytes.Equal(oldPolicy, newPolicy) {
		msg := "policy.json changed (blocked or allowed registries): CRI-O is reloaded"
		switch {
		case old == nil || old.PolicyJSON == nil:
			msg = "policy.json written (blocked or allowed registries set): CRI-O is reloaded"
		case new == nil || new.PolicyJSON == nil:
			msg = "policy.json back to the template (no blocked or allowed registries left): CRI-O is reloaded"
		}
		v.Reasons = append(v.Reasons, Reason{File: PolicyJSONPath, Message: msg})
	}

	for _, r := range v.Reasons {
		if r.Drain {
			v.Drain = true
		}
	}
	return v
}

func files(o *render.Output) (conf, search []byte) {
	if o == nil {
		return render.Template(), nil
	}
	conf = o.RegistriesConf
	if conf == nil {
		conf = render.Template()
	}
	return conf, o.SearchRegistriesConf
}

// policyOf is the policy.json the node holds after o.
func policyOf(o *render.Output) []byte {
	if o == nil || o.PolicyJSON == nil {
		return render.TemplatePolicyJSON()
	}
	return o.PolicyJSON
}
