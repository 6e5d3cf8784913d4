package manifest

import (
	"maps"
	"slices"
	"strings"
)

// Needs is the set of object kinds a run reads: the kinds its rules,
// policies and renderer declare (check.Rule.Reads and their like). A file
// whose bytes show it can hold none of them need not be parsed (see
// MayHold). The zero value needs every kind the loader keeps.
type Needs struct {
	kinds map[string]bool // nil: every kind the loader keeps
}

// NeedAll is every kind the loader keeps: what a run with a policy that
// may read any object needs.
func NeedAll() Needs { return Needs{} }

// NeedKinds is the given kinds only.
func NeedKinds(kinds ...string) Needs {
	n := Needs{kinds: map[string]bool{}}
	for _, k := range kinds {
		n.kinds[k] = true
	}
	return n
}

// All reports whether every kind the loader keeps is needed.
func (n Needs) All() bool { return n.kinds == nil }

// Union is what either needs.
func (n Needs) Union(o Needs) Needs {
	if n.All() || o.All() {
		return NeedAll()
	}
	out := NeedKinds()
	for k := range n.kinds {
		out.kinds[k] = true
	}
	for k := range o.kinds {
		out.kinds[k] = true
	}
	return out
}

// Without is what n needs but the given kinds; every kind stays needed
// when n needs every kind (what "every kind" holds is not listed).
func (n Needs) Without(kinds ...string) Needs {
	if n.All() {
		return n
	}
	out := NeedKinds()
	for k := range n.kinds {
		if !slices.Contains(kinds, k) {
			out.kinds[k] = true
		}
	}
	return out
}

// Kinds lists the needed kinds, sorted; nil when every kind is needed.
func (n Needs) Kinds() []string {
	if n.All() {
		return nil
	}
	out := slices.Sorted(maps.Keys(n.kinds))
	return out
}

// Has reports whether objects of kind are needed and kept by a loader that
// keeps u of the unmodelled kinds. A typed list (ImageDigestMirrorSetList)
// is needed when its items are; a kind the loader keeps only to report it
// (a misspelt mirror kind) and a policy wrapper are needed whenever
// anything is.
func (n Needs) Has(kind string, u Unmodelled) bool {
	if !KeepsAs(kind, u) {
		return false
	}
	if n.All() || n.kinds[kind] {
		return true
	}
	if base, ok := strings.CutSuffix(kind, "List"); ok && base != "" && n.kinds[base] {
		return true
	}
	if wrapperKinds[kind] {
		return true
	}
	_, unmodelled := imageKinds[kind]
	return Keeps(kind) && !modelledKind(kind) && !unmodelled
}

// modelledKind reports the kinds the loader decodes into API types.
func modelledKind(kind string) bool {
	switch Kind(kind) {
	case KindICSP, KindIDMS, KindITMS, KindImage, KindMachineConfig,
		KindClusterImagePolicy, KindImagePolicy, KindFeatureGate, KindClusterVersion,
		KindMachineConfiguration:
		return true
	}
	return false
}

// KeepsAs is Keeps for a loader that also keeps u of the unmodelled kinds:
// the image-pulling kinds (UnmodelledImages), or every kind
// (UnmodelledAll).
func KeepsAs(kind string, u Unmodelled) bool {
	switch {
	case Keeps(kind):
		return true
	case u == UnmodelledAll:
		return kind != ""
	case u == UnmodelledImages:
		_, ok := imageKinds[kind]
		return ok || inputKinds[kind]
	}
	return false
}

// ImageKinds are the kinds whose image references a node pulls (what the
// loader keeps with UnmodelledImages), sorted.
func ImageKinds() []string {
	out := slices.Sorted(maps.Keys(imageKinds))
	return out
}

// wrapperKinds are kinds the loader looks into for objects of other kinds
// (policy wrappers, see acm.go): needed whenever anything is, since what
// they wrap is known only once parsed. They are listed here, next to
// Keeps, so the prefilter and the loader cannot disagree on them.
var wrapperKinds = map[string]bool{}

// Keeps reports whether the loader keeps (or looks inside) a document of
// this kind under some apiVersion, keeping no unmodelled kind: the
// loader's own decision, asked by the prefilter, so a kind the loader
// starts reading is never skipped.
func Keeps(kind string) bool {
	if kind == KindConfigMap {
		return true // some of them: see IsPlatformConfigMap
	}
	for _, av := range []string{Kind(kind).APIVersion(), "config.openshift.io/v1", ""} {
		if _, _, keep := classify(av, kind); keep {
			return true
		}
	}
	if base, ok := strings.CutSuffix(kind, "List"); ok && base != "" && base != kind {
		return Keeps(base)
	}
	return wrapperKinds[kind]
}
