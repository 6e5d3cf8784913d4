package ndp

import (
	"fmt"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/schema"
	"github.com/mirrorlint/mirrorlint/render"
)

// ObjectName is the only MachineConfiguration MCO reads
// (ctrlcommon.MCOOperatorKnobsObjectName); the CRD accepts any name.
const ObjectName = "cluster"

// Where the policies in force come from.
const (
	FromDefaults = "defaults" // no accepted MachineConfiguration/cluster: the operator's own, empty spec
	FromNew      = "new tree"
	FromOld      = "old tree" // the new one is refused, the cluster keeps the old one
)

// InForce is the policies the daemon follows when it applies a change, and
// where they come from.
type InForce struct {
	Policies
	From string
	// Object is the MachineConfiguration/cluster in force, nil for the
	// defaults.
	Object *manifest.Object
	// Rejected is the new tree's MachineConfiguration/cluster when the API
	// server would refuse it; Refusals are its errors, worded as the API
	// server words them.
	Rejected *manifest.Object
	Refusals []Refusal
	// Ignored are MachineConfiguration objects of another name in the new
	// tree: valid or not, MCO never reads them.
	Ignored []*manifest.Object
}

// Refusal is one reason the API server refuses a MachineConfiguration.
type Refusal struct {
	Message string
	// Path is the offending field (nil when the refusal names none, as a
	// decode error does).
	Path manifest.Path
}

// Resolve picks the policies in force for release v when the tree goes
// from oldObjs to newObjs: the new tree's MachineConfiguration/cluster, or
// when the API server refuses it the old tree's (if that one was
// accepted), else the defaults. A tree without the object leaves the
// operator's own one, with an empty spec.
func Resolve(v render.Version, oldObjs, newObjs []*manifest.Object) InForce {
	in := InForce{From: FromDefaults}
	newMC := clusterObject(newObjs)
	for _, o := range machineConfigurations(newObjs) {
		if o.Name != ObjectName {
			in.Ignored = append(in.Ignored, o)
		}
	}
	spec := operatorv1.NodeDisruptionPolicyConfig{}
	if newMC != nil {
		if refusals := Validate(newMC); len(refusals) > 0 {
			in.Rejected, in.Refusals = newMC, refusals
			if oldMC := clusterObject(oldObjs); oldMC != nil && len(Validate(oldMC)) == 0 {
				in.From, in.Object = FromOld, oldMC
				spec = oldMC.MachineConfiguration.Spec.NodeDisruptionPolicy
			}
		} else {
			in.From, in.Object = FromNew, newMC
			spec = newMC.MachineConfiguration.Spec.NodeDisruptionPolicy
		}
	}
	in.Policies = Merge(v, spec)
	return in
}

// machineConfigurations are the tree's MachineConfiguration objects under
// the served apiVersion, decoded or not (an object that does not decode
// is refused by the API server too).
func machineConfigurations(objs []*manifest.Object) []*manifest.Object {
	var out []*manifest.Object
	for _, o := range objs {
		if o.Kind == manifest.KindMachineConfiguration && o.APIVersion == manifest.KindMachineConfiguration.APIVersion() && o.Content != nil {
			out = append(out, o)
		}
	}
	return out
}

// clusterObject is the last MachineConfiguration/cluster of the tree (each
// apply replaces the one before), nil when there is none.
func clusterObject(objs []*manifest.Object) *manifest.Object {
	var last *manifest.Object
	for _, o := range machineConfigurations(objs) {
		if o.Name == ObjectName {
			last = o
		}
	}
	return last
}

// Validate returns what the API server refuses in a MachineConfiguration:
// its schema (types, enums, the CRD's rules, unknown fields, duplicate
// paths), or the decode error of a value of the wrong type.
func Validate(o *manifest.Object) []Refusal {
	var out []Refusal
	for _, e := range schema.Validate(string(manifest.KindMachineConfiguration), o.Content) {
		out = append(out, Refusal{Message: e.Error(), Path: e.Path})
	}
	if len(out) == 0 && o.MachineConfiguration == nil {
		for _, line := range strings.Split(o.DecodeError, "\n") {
			if line != "" {
				out = append(out, Refusal{Message: line})
			}
		}
		if len(out) == 0 {
			out = append(out, Refusal{Message: "the object does not decode"})
		}
	}
	return out
}

// Lines says where the policies come from, one line each: the
// MachineConfiguration in force (or why the defaults), then every object
// MCO ignores for its name.
func (in InForce) Lines() []string {
	var lines []string
	switch {
	case in.From == FromNew:
		lines = append(lines, "new tree: MachineConfiguration/cluster")
	case in.From == FromOld:
		lines = append(lines, "old tree: MachineConfiguration/cluster (the new one is rejected by the API server)")
	case in.Rejected != nil:
		lines = append(lines, "defaults: the new MachineConfiguration/cluster is rejected by the API server and the cluster has no other")
	default:
		lines = append(lines, "defaults: no MachineConfiguration/cluster in the new tree (the operator's own object, empty spec)")
	}
	for _, o := range in.Ignored {
		state := "valid"
		if len(Validate(o)) > 0 {
			state = "rejected by the API server anyway"
		}
		lines = append(lines, fmt.Sprintf("ignored: %s (%s; MCO only reads %q)", o.Ref(), state, ObjectName))
	}
	return lines
}

// Describe names the entry that decided a file, for messages: "the
// default policy for /etc/containers/registries.conf (Special)", or
// "MachineConfiguration/cluster spec.nodeDisruptionPolicy.files[2]
// (/etc/containers, None)"; "no policy (Reboot)" when none matched.
func (in InForce) Describe(m FileMatch) string {
	if m.Rule == nil {
		return "no node-disruption policy covers it (Reboot)"
	}
	acts := make([]string, len(m.Rule.Actions))
	for i, a := range m.Rule.Actions {
		acts[i] = a.String()
	}
	if m.Rule.Default() {
		return fmt.Sprintf("the default policy for %s (%s)", m.Rule.Path, strings.Join(acts, ", "))
	}
	return fmt.Sprintf("%s %s (%s: %s)", in.Object.Ref(), FilePath(m.Rule.Index), m.Rule.Path, strings.Join(acts, ", "))
}

// FilePath is the field path of the user's files[i] entry.
func FilePath(i int) manifest.Path {
	return manifest.Path{"spec", "nodeDisruptionPolicy", "files", i}
}

// DrainOverrideName is the ConfigMap whose mere existence in
// openshift-machine-config-operator makes the 4.17–4.19 daemon skip the
// drain of the Special action (constants.ImageRegistryDrainOverrideConfigmap).
const DrainOverrideName = "image-registry-override-drain"

// DrainOverride reports whether the daemon of release v skips the Special
// drain because objs hold the override ConfigMap; 4.20 removed it.
func DrainOverride(v render.Version, objs []*manifest.Object) bool {
	if !v.AtLeast(17) || v.AtLeast(20) {
		return false
	}
	for _, o := range objs {
		if o.Kind == manifest.KindConfigMap && o.APIVersion == "v1" && o.Name == DrainOverrideName && o.Namespace() == manifest.NamespaceMCO {
			return true
		}
	}
	return false
}
