package manifest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A Hive SyncSet patch entry kept in a file of its own is no object: one
// of a kind the loader reads is noted at its kind, one of another kind is
// passed over, and an object of the same kind written out is still read.
func TestSyncSetPatchIsNoObject(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"mc-patch.yaml": `apiVersion: operator.openshift.io/v1
applyMode: AlwaysApply
kind: MachineConfiguration
name: cluster
namespace: openshift-machine-config-operator
patch: '{"spec":{"managedBootImages":{"machineManagers":[]}}}'
patchType: merge
`,
		"cm-patch.yaml": `apiVersion: v1
kind: ConfigMap
name: settings
namespace: default
patch: '{"data":{"a":"b"}}'
patchType: merge
`,
		"idms.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: mirrors
spec:
  imageDigestMirrors: []
`,
	})
	set, err := Load([]string{dir}, Options{Unmodelled: UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Objects) != 1 || set.Objects[0].Ref() != "ImageDigestMirrorSet/mirrors" {
		var refs []string
		for _, o := range set.Objects {
			refs = append(refs, o.Ref())
		}
		t.Errorf("objects %v, want only the mirror set", refs)
	}
	if len(set.Problems) != 1 {
		t.Fatalf("problems %v", set.Problems)
	}
	p := set.Problems[0]
	if p.Code != CodeNotApplied || !p.Warning || p.Pos.File != filepath.Join(dir, "mc-patch.yaml") || span(p.Pos) != "3:7" ||
		!strings.Contains(p.Message, "SyncSet patch of MachineConfiguration/cluster") {
		t.Errorf("problem %+v", p)
	}
}
