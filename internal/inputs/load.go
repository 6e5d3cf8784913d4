package inputs

import (
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// triggerKinds are the kinds that declare a cluster here; a tree without
// any is read no further.
var triggerKinds = []string{manifest.KindInstallConfig, "SiteConfig", "ClusterInstance", "AgentClusterInstall", "AgentServiceConfig", "HostedCluster"}

// Declares reports whether an object of kind declares a cluster here: a
// tree holding none has no inputs for Load to read.
func Declares(kind string) bool { return slices.Contains(triggerKinds, kind) }

// DeclaringKinds are the kinds Declares knows.
func DeclaringKinds() []string { return slices.Clone(triggerKinds) }

// DeclaringOptions are base's limits for a load that looks only for the
// objects that declare a cluster: every kind kept, only the files that may
// hold one parsed.
func DeclaringOptions(base manifest.Options) manifest.Options {
	o := base
	o.Unmodelled, o.ParseAll, o.Narrowed, o.Narrows = manifest.UnmodelledAll, nil, nil, nil
	trigger := manifest.NeedKinds(triggerKinds...)
	o.Prefilter = &trigger
	return o
}

// AnyDeclares reports whether one of objs declares a cluster.
func AnyDeclares(objs []*manifest.Object) bool {
	return slices.ContainsFunc(objs, func(obj *manifest.Object) bool { return Declares(string(obj.Kind)) })
}

// Load reads the input objects of files (those a tree's load read) whole,
// with base's limits: first only the files that may declare a cluster (a
// byte test, so a tree without inputs costs one read of its files), then,
// when one does, every file that may hold an input kind or a mirror
// object. A stream (manifest.StreamName) cannot be read twice and gives nothing.
func Load(files []string, base manifest.Options) []*manifest.Object {
	if len(files) == 0 || slices.ContainsFunc(files, manifest.IsStream) {
		return nil
	}
	set, err := manifest.Load(files, DeclaringOptions(base))
	if err != nil || !AnyDeclares(set.Objects) {
		return nil
	}
	return LoadDeclared(files, base)
}

// LoadDeclared is Load's second pass, for a caller that already knows one
// of files declares a cluster: every file that may hold an input kind or a
// mirror object, read whole with base's limits. A stream gives nothing,
// as in Load.
func LoadDeclared(files []string, base manifest.Options) []*manifest.Object {
	if len(files) == 0 || slices.ContainsFunc(files, manifest.IsStream) {
		return nil
	}
	o := DeclaringOptions(base)
	all := manifest.NeedKinds(Kinds...)
	o.Prefilter = &all
	set, err := manifest.Load(files, o)
	if err != nil {
		return nil
	}
	return set.Objects
}
