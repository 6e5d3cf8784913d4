package manifest

import "testing"

// MachineConfiguration is read under operator.openshift.io/v1 only, typed,
// with positions for the node-disruption policy entries.
func TestMachineConfigurationLoaded(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, []string{"testdata/machineconfiguration/mc.yaml"}, Options{})
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	if len(s.Objects) != 1 {
		t.Fatalf("objects %v, want MachineConfiguration/cluster only", refs(s))
	}
	o := s.Objects[0]
	if !o.Known || o.Kind != KindMachineConfiguration || o.MachineConfiguration == nil {
		t.Fatalf("not decoded: %+v", o)
	}
	files := o.MachineConfiguration.Spec.NodeDisruptionPolicy.Files
	if len(files) != 1 || files[0].Path != "/etc/containers/registries.conf" || files[0].Actions[0].Reload.ServiceName != "crio.service" {
		t.Errorf("files %+v", files)
	}
	checkLocs(t, o, []locCase{{"spec.nodeDisruptionPolicy.files[0].path", false, "9:13-9:44"}})
}
