// Package drain predicts what a node does when the rendered registry files
// change: reload CRI-O only, or cordon and drain (and possibly reboot). It
// follows the Machine Config Daemon's default NodeDisruptionPolicy
// (4.18–4.21): registries.conf is "Special" (drain only for unsafe
// changes); policy.json, /etc/containers/registries.d and
// /etc/crio/policies only reload CRI-O; the search-registries drop-in has
// no policy of its own and therefore reboots.
package drain

import (
	"bytes"
	"maps"
	"slices"

	"github.com/containers/image/v5/pkg/sysregistriesv2"

	"github.com/mirrorlint/mirrorlint/internal/mco"
	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/render"
)

// File paths as they appear in Reasons.
const (
	RegistriesConfPath = nodefiles.RegistriesConfPath
	SearchDropInPath   = nodefiles.SearchDropInPath
	PolicyJSONPath     = nodefiles.PolicyJSONPath
	SigstorePath       = nodefiles.SigstoreRegistriesPath
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
	// Policy is set when the verdict follows node-disruption policies
	// (WithPolicies); nil for the legacy defaults.
	Policy *Policy
}

// Reason is one change and its consequence.
type Reason struct {
	File  string
	Scope string // registry scope (prefix, else location), "" when file-wide
	// Field is what changed (one of the Field constants), so that callers
	// can place the reason without parsing Message.
	Field string
	// Mirror is the mirror location the change is about, "" when it is not
	// about one mirror.
	Mirror  string
	Message string
	Drain   bool // whether this change on its own forces a drain
	// Reboot is whether it also reboots the node (a file no
	// node-disruption policy covers).
	Reboot bool

	// change is Message without its effect, for the reasons about a whole
	// file, whose effect depends on the node-disruption policy.
	change string
}

// Reason fields.
const (
	FieldSearch         = "search"           // unqualified-search-registries in registries.conf
	FieldScopeAdded     = "scope-added"      // a registry scope added
	FieldScopeRemoved   = "scope-removed"    // a registry scope removed
	FieldPrefix         = "prefix"           // a scope's prefix changed
	FieldLocation       = "location"         // a scope's location changed
	FieldBlocked        = "blocked"          // a scope's blocked flag changed
	FieldInsecure       = "insecure"         // a scope's insecure flag changed
	FieldMirrorAdded    = "mirror-added"     // a mirror added to an existing scope
	FieldMirrorRemoved  = "mirror-removed"   // a mirror removed from a scope
	FieldPullFromMirror = "pull-from-mirror" // a mirror's pull-from-mirror changed
	FieldMirrors        = "mirrors"          // mirrors reordered or their flags changed
	FieldRewritten      = "rewritten"        // registries.conf bytes changed, content equivalent
	FieldSearchDropIn   = "search-drop-in"   // the search-registries drop-in
	FieldPolicy         = "policy"           // policy.json
	FieldSigstore       = "sigstore"         // registries.d/sigstore-registries.yaml
	FieldCRIOPolicy     = "crio-policy"      // an /etc/crio/policies/<namespace>.json
	FieldRegistryCA     = "registry-ca"      // an /etc/docker/certs.d/<host>/ca.crt
)

// Compare returns the verdict for a node moving from old to new; it
// compares the registries.conf bytes and, when they differ, decodes both
// as the daemon does and compares the configurations. A nil
// Output stands for "MCO writes nothing": the template registries.conf and
// no drop-in. (When MCO refuses to render, nodes keep the previous files:
// pass the previous Output as new.)
func Compare(old, new *render.Output) Verdict {
	oldSearch, newSearch := old.NodeSearchRegistriesConf(), new.NodeSearchRegistriesConf()
	var v Verdict

	if !bytes.Equal(old.NodeRegistriesConf(), new.NodeRegistriesConf()) {
		reasons := registriesChanges(decoded(old), decoded(new))
		if len(reasons) == 0 {
			reasons = []Reason{{File: RegistriesConfPath, Field: FieldRewritten, Message: "registries.conf rewritten with equivalent content; CRI-O is reloaded"}}
		}
		v.Reasons = append(v.Reasons, reasons...)
	}

	searchChange, searchEffect := "", "nodes drain and reboot"
	switch {
	case oldSearch == nil && newSearch != nil:
		searchChange, searchEffect = "search-registries drop-in added", "no NodeDisruptionPolicy covers it, so nodes drain and reboot"
	case oldSearch != nil && newSearch == nil:
		searchChange = "search-registries drop-in removed"
	case !bytes.Equal(oldSearch, newSearch):
		searchChange = "search-registries drop-in changed"
	}
	if searchChange != "" {
		v.Reasons = append(v.Reasons, fileReason(SearchDropInPath, FieldSearchDropIn, searchChange, searchEffect, true, true))
		v.Reboot = true
	}

	// policy.json falls under the default NodeDisruptionPolicy's "reload
	// crio" action: whatever changed in it, the node is not drained.
	// Without a generated file the node keeps the template, so a file
	// written or dropped is a change too.
	if oldPolicy, newPolicy := old.NodePolicyJSON(), new.NodePolicyJSON(); !bytes.Equal(oldPolicy, newPolicy) {
		change := "policy.json changed (blocked or allowed registries, signature policies)"
		switch {
		case old == nil || old.PolicyJSON == nil:
			change = "policy.json written (blocked or allowed registries or signature policies set)"
		case new == nil || new.PolicyJSON == nil:
			change = "policy.json back to the template (no blocked or allowed registries or signature policies left)"
		}
		v.Reasons = append(v.Reasons, fileReason(PolicyJSONPath, FieldPolicy, change, reloadEffect, false, false))
	}
	// registries.d and /etc/crio/policies have reload-crio policies of
	// their own: written, changed or removed, the node is not drained.
	v.Reasons = append(v.Reasons, sigstoreChanges(old, new)...)
	v.Reasons = append(v.Reasons, caChanges(old, new)...)

	for _, r := range v.Reasons {
		if r.Drain {
			v.Drain = true
		}
	}
	return v
}

// reloadEffect is the default policy's effect on policy.json and the
// signature files.
const reloadEffect = "CRI-O is reloaded"

// fileReason is a reason about a whole file: change says what changed,
// effect what the node does about it.
func fileReason(file, field, change, effect string, drain, reboot bool) Reason {
	return Reason{File: file, Field: field, Message: change + ": " + effect, Drain: drain, Reboot: reboot, change: change}
}

// decoded is the registries.conf a node holds after o, decoded. Render only
// produces files that decode (its fuzz target checks that), so a failure
// here would be a renderer bug; it reads as an empty configuration, which
// makes every old scope "missing" and the verdict a drain, the safe answer.
func decoded(o *render.Output) sysregistriesv2.V2RegistriesConf {
	conf, err := nodefiles.Decode(o.NodeRegistriesConf())
	if err != nil {
		return sysregistriesv2.V2RegistriesConf{}
	}
	return conf
}

// sigstoreChanges lists the changes to the files MCO derives from the
// signature policies: registries.d/sigstore-registries.yaml and one
// /etc/crio/policies/<namespace>.json per namespace. Each only reloads
// CRI-O.
func sigstoreChanges(old, new *render.Output) []Reason {
	var out []Reason
	change := func(file, field string, a, b []byte, what string) {
		switch {
		case bytes.Equal(a, b) && (a == nil) == (b == nil):
			return
		case a == nil:
			out = append(out, fileReason(file, field, what+" written", reloadEffect, false, false))
		case b == nil:
			out = append(out, fileReason(file, field, what+" removed", reloadEffect, false, false))
		default:
			out = append(out, fileReason(file, field, what+" changed", reloadEffect, false, false))
		}
	}
	change(SigstorePath, FieldSigstore, sigstoreOf(old), sigstoreOf(new), "sigstore-registries.yaml (where signatures are looked up)")
	for _, ns := range CRIONamespaces(old, new) {
		change(nodefiles.CRIOPolicyPath(ns), FieldCRIOPolicy, crioPolicyOf(old, ns), crioPolicyOf(new, ns), "the policy of namespace "+ns)
	}
	return out
}

func sigstoreOf(o *render.Output) []byte {
	if o == nil {
		return nil
	}
	return o.SigstoreRegistriesYAML
}

func crioPolicyOf(o *render.Output, ns string) []byte {
	if o == nil {
		return nil
	}
	return o.CRIOPolicies[ns]
}

// CRIONamespaces lists, sorted, the namespaces with an /etc/crio/policies
// file on either side.
func CRIONamespaces(outs ...*render.Output) []string {
	seen := map[string]bool{}
	for _, o := range outs {
		if o == nil {
			continue
		}
		for ns := range o.CRIOPolicies {
			seen[ns] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// caEffect is why a registry CA change disrupts nothing.
const caEffect = "the machine-config-daemon writes it from ControllerConfig, no MachineConfig changes, so nothing drains or reboots"

// caChanges lists the registry CA files (additionalTrustedCA) written,
// changed or removed.
func caChanges(old, new *render.Output) []Reason {
	var out []Reason
	for _, dir := range RegistryCADirs(old, new) {
		a, b := caOf(old, dir), caOf(new, dir)
		what := "registry CA for " + dir
		switch {
		case bytes.Equal(a, b) && (a == nil) == (b == nil):
			continue
		case a == nil:
			what += " written"
		case b == nil:
			what += " removed"
		default:
			what += " changed"
		}
		out = append(out, fileReason(mco.CertsDPath(dir), FieldRegistryCA, what, caEffect, false, false))
	}
	return out
}

func caOf(o *render.Output, dir string) []byte {
	if o == nil {
		return nil
	}
	return o.RegistryCAFiles[dir]
}

// RegistryCADirs lists, sorted, the registry directories with a CA on
// either side.
func RegistryCADirs(outs ...*render.Output) []string {
	seen := map[string]bool{}
	for _, o := range outs {
		if o == nil {
			continue
		}
		for d := range o.RegistryCAFiles {
			seen[d] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
