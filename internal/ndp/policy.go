// Package ndp models the node-disruption policies of the Machine Config
// Daemon: what it does on a node once a new rendered MachineConfig changes
// some files, given the release's default policies and the user's
// MachineConfiguration/cluster spec.nodeDisruptionPolicy. It follows the
// daemon's own steps: the operator merges the user's entries into the
// defaults, each changed file takes the actions of the longest policy path
// covering it (a file no policy covers reboots), the actions of every file
// are collected, Reboot swallows everything and None gives way to anything
// else, and the node is drained for Reboot or Drain, or for the Special
// action of registries.conf when that file's change is not one the daemon
// considers safe. 4.16 is modelled as its TechPreviewNoUpgrade daemon
// matched: exact paths only, fewer defaults, two directories handled in
// code.
package ndp

import (
	"path"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/mirrorlint/mirrorlint/render"
)

// Action types, as the daemon logs them. Special is the status-only action
// the defaults give registries.conf; users cannot write it.
const (
	Reboot       = "Reboot"
	Drain        = "Drain"
	Reload       = "Reload"
	Restart      = "Restart"
	DaemonReload = "DaemonReload"
	None         = "None"
	Special      = "Special"
)

// Action is one thing the daemon does after writing the files.
type Action struct {
	Type string `json:"type"`
	// Service is the unit a Reload or Restart acts on.
	Service string `json:"service,omitempty"`
}

// String is the daemon's log line for the action: "Reload - crio.service",
// "Special", "Drain".
func (a Action) String() string {
	if a.Service != "" {
		return a.Type + " - " + a.Service
	}
	return a.Type
}

// FileRule is one entry of the merged file policies.
type FileRule struct {
	Path    string
	Actions []Action
	// Index is the entry's place in the user's spec.nodeDisruptionPolicy
	// files list, -1 for a release default the user did not replace.
	Index int
}

// Default reports whether the entry is the release's own.
func (r FileRule) Default() bool { return r.Index < 0 }

// UnitRule is one entry of the merged unit policies.
type UnitRule struct {
	Name    string
	Actions []Action
	Index   int // -1 for a default
}

// Applies reports whether the daemon of release v with featureSet follows
// node-disruption policies: the NodeDisruptionPolicy feature gate is on in
// every feature set from 4.17 (4.20 dropped the gate, the policy path is
// always taken); 4.16 served it only in TechPreviewNoUpgrade and
// DevPreviewNoUpgrade. Older releases, and 4.16 in the Default feature
// set, get the legacy verdict.
func Applies(v render.Version, featureSet string) bool {
	if v.AtLeast(17) {
		return true
	}
	return v.AtLeast(16) && (featureSet == "TechPreviewNoUpgrade" || featureSet == "DevPreviewNoUpgrade")
}

// exactOnly is the 4.16 daemon's matching: an entry applies to the file
// of its exact path only, never to a directory's files.
func exactOnly(v render.Version) bool { return !v.AtLeast(17) }

// Paths of the release defaults.
const (
	RegistriesConfPath = "/etc/containers/registries.conf"
	PolicyJSONPath     = "/etc/containers/policy.json"
	GPGNoRebootPath    = "/etc/machine-config-daemon/no-reboot/containers-gpg.pub"
	KubeletAuthPath    = "/var/lib/kubelet/config.json"
	RegistriesDDir     = "/etc/containers/registries.d"
	CRIOPoliciesDir    = "/etc/crio/policies"
	NMStateDir         = "/etc/nmstate/openshift"
	UserCABundlePath   = "/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt"
)

func reload(svc string) Action  { return Action{Type: Reload, Service: svc} }
func restart(svc string) Action { return Action{Type: Restart, Service: svc} }

// DefaultFiles are the release's default file policies, in the operator's
// order (defaultClusterPolicies in MCO's pkg/apihelpers): /etc/crio/policies
// joined in 4.18; 4.16 had only the four files (registries.d and the
// nmstate directory were special cases in the daemon, see special416) and
// no user CA bundle entry.
func DefaultFiles(v render.Version) []FileRule {
	rules := []FileRule{
		{Path: KubeletAuthPath, Actions: []Action{{Type: None}}},
		{Path: GPGNoRebootPath, Actions: []Action{reload("crio.service")}},
		{Path: PolicyJSONPath, Actions: []Action{reload("crio.service")}},
		{Path: RegistriesConfPath, Actions: []Action{{Type: Special}}},
	}
	if exactOnly(v) {
		for i := range rules {
			rules[i].Index = -1
		}
		return rules
	}
	rules = append(rules, FileRule{Path: RegistriesDDir, Actions: []Action{reload("crio.service")}})
	if v.AtLeast(18) {
		rules = append(rules, FileRule{Path: CRIOPoliciesDir, Actions: []Action{reload("crio.service")}})
	}
	rules = append(rules,
		FileRule{Path: NMStateDir, Actions: []Action{{Type: None}}},
		FileRule{Path: UserCABundlePath, Actions: []Action{restart("coreos-update-ca-trust.service"), restart("crio.service")}},
	)
	for i := range rules {
		rules[i].Index = -1
	}
	return rules
}

// Policies are the merged policies the daemon follows (the operator's
// status.nodeDisruptionPolicyStatus.clusterPolicies).
type Policies struct {
	Files  []FileRule
	Units  []UnitRule
	SSHKey []Action
	// SSHKeyIndex is 0 when the user's sshkey entry replaced the default,
	// -1 otherwise.
	SSHKeyIndex int
	// Exact is the 4.16 daemon's matching (exact paths, then its special
	// cases).
	Exact bool
}

// Merge is the operator's merge of a user spec into the defaults of
// release v: a user file entry whose path string equals a default's
// replaces it in place, any other is appended; units merge by name; a user
// sshkey entry with actions replaces the default.
func Merge(v render.Version, spec operatorv1.NodeDisruptionPolicyConfig) Policies {
	defaults := DefaultFiles(v)
	p := Policies{Files: DefaultFiles(v), SSHKey: []Action{{Type: None}}, SSHKeyIndex: -1, Exact: exactOnly(v)}
	for i, f := range spec.Files {
		rule := FileRule{Path: f.Path, Actions: specActions(f.Actions), Index: i}
		replaced := false
		for j, d := range defaults {
			if d.Path == f.Path {
				p.Files[j], replaced = rule, true
				break
			}
		}
		if !replaced {
			p.Files = append(p.Files, rule)
		}
	}
	for i, u := range spec.Units {
		p.Units = append(p.Units, UnitRule{Name: string(u.Name), Actions: specActions(u.Actions), Index: i})
	}
	if len(spec.SSHKey.Actions) > 0 {
		p.SSHKey, p.SSHKeyIndex = specActions(spec.SSHKey.Actions), 0
	}
	return p
}

func specActions(in []operatorv1.NodeDisruptionPolicySpecAction) []Action {
	out := make([]Action, 0, len(in))
	for _, a := range in {
		act := Action{Type: string(a.Type)}
		switch {
		case a.Reload != nil:
			act.Service = string(a.Reload.ServiceName)
		case a.Restart != nil:
			act.Service = string(a.Restart.ServiceName)
		}
		out = append(out, act)
	}
	return out
}

// Match returns the rule the daemon applies to a changed file (MCO's
// FindClosestFilePolicyPathMatch): of the entries equal to the path or
// covering it as a directory (the entry cleaned, given one trailing "/",
// then used as a string prefix of the cleaned path), the one with the
// longest path string as written; the first of equals. ok is false when no
// entry matches: the daemon then reboots.
//
// The 4.16 daemon matched exact paths only; a file no entry names took its
// special cases: a file directly in /etc/containers/registries.d reloads
// crio, one under /etc/nmstate/openshift does nothing.
func (p Policies) Match(file string) (rule FileRule, ok bool) {
	if p.Exact {
		for _, r := range p.Files {
			if r.Path == file {
				return r, true
			}
		}
		return special416(file)
	}
	best := 0
	for _, r := range p.Files {
		if file != r.Path && !underDir(r.Path, file) {
			continue
		}
		if len(r.Path) > best {
			best, rule, ok = len(r.Path), r, true
		}
	}
	return rule, ok
}

// underDir is MCO's IsSubdirectory: "/" becomes "//" and covers nothing,
// a relative entry covers no absolute file.
func underDir(dir, file string) bool {
	return strings.HasPrefix(path.Clean(file), path.Clean(dir)+"/")
}

// special416 is the 4.16 daemon's handling of the directories that became
// default entries in 4.17, for a file no entry names.
func special416(file string) (FileRule, bool) {
	switch {
	case path.Dir(file) == RegistriesDDir:
		return FileRule{Path: RegistriesDDir, Actions: []Action{reload("crio.service")}, Index: -1}, true
	case underDir(NMStateDir, file):
		return FileRule{Path: NMStateDir, Actions: []Action{{Type: None}}, Index: -1}, true
	}
	return FileRule{}, false
}
