package manifest

import "testing"

// The platform's ConfigMaps (openshift-* namespaces) are kept whole, as
// unmodelled objects, by every load; the others only on request.
func TestPlatformConfigMapsKept(t *testing.T) {
	t.Parallel()
	for _, u := range []Unmodelled{UnmodelledNone} {
		s := mustLoad(t, []string{"testdata/configmaps/cms.yaml"}, Options{Unmodelled: u})
		if len(s.Objects) != 1 {
			t.Fatalf("unmodelled %d: objects %v, want the openshift-config one only", u, refs(s))
		}
		o := s.Objects[0]
		if !o.Unmodelled || o.Known || o.Partial || o.Namespace() != NamespaceOpenShiftConfig {
			t.Errorf("kept as %+v", o)
		}
		// A key with dots is one path element (ParsePath would split it).
		if p := o.LocateKey(Path{"data", "mirror.example.com..5000"}); p.Line != 7 || p.Column != 3 {
			t.Errorf("key at %v, want line 7 column 3", p)
		}
	}
	if s := mustLoad(t, []string{"testdata/configmaps/cms.yaml"}, Options{Unmodelled: UnmodelledAll}); len(s.Objects) != 3 {
		t.Errorf("UnmodelledAll kept %v", refs(s))
	}
}
