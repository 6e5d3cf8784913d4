package manifest

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// A Hive SyncSet or SelectorSyncSet changes objects on the clusters it
// selects by patches as well as by objects: each entry of its patches
// names the target by apiVersion, kind, name and namespace, beside the
// patch and its patchType, with no metadata. Repositories that generate
// their SyncSets (OpenShift Dedicated's managed-cluster-config) keep each
// entry in a file of its own. Such a document is not the object its kind
// names, so it is not read as one: its missing metadata and spec and its
// extra keys are no mistakes. When the kind is one mirrorlint reads, what
// it changes is not linted, and that is said (CodeNotApplied).

// isSyncSetPatch reports whether the mapping n is a SyncSet patch entry.
func isSyncSetPatch(n *yaml.Node) bool {
	return mapValue(n, "metadata") == nil && mapValue(n, "patch") != nil && mapValue(n, "patchType") != nil
}

// syncSetPatch notes a SyncSet patch entry of a kind the loader reads.
func (fp *fileParse) syncSetPatch(n *yaml.Node, apiVersion, kind string) {
	if _, _, keep := classify(apiVersion, kind); !keep {
		return
	}
	at := mapValue(n, "kind")
	fp.res.problems = append(fp.res.problems, Problem{
		Pos: fp.posOf(at), Code: CodeNotApplied, Warning: true,
		Message: fmt.Sprintf("this is a Hive SyncSet patch of %s/%s (name, patch, patchType; no metadata), not the object itself: "+
			"the SyncSet that lists it patches the object on each cluster it selects, which mirrorlint does not model, so the change is not linted; "+
			"lint the object as the cluster holds it", kind, scalarOf(n, "name")),
	})
}
