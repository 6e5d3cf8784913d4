package inputs

import "testing"

// An Application's path covers the files directly in that directory of
// the checkout, and with directory.recurse the files below it.
func TestArgoSynced(t *testing.T) {
	for _, tc := range []struct {
		s    argoSync
		file string
		want bool
	}{
		{argoSync{Dir: "sync/hc1"}, "/repo/sync/hc1/idms.yaml", true},
		{argoSync{Dir: "sync/hc1"}, "/repo/sync/hc1/sub/idms.yaml", false},
		{argoSync{Dir: "sync/hc1", Recurse: true}, "/repo/sync/hc1/sub/idms.yaml", true},
		{argoSync{Dir: "sync/hc1"}, "/repo/other-sync/hc1/idms.yaml", false},
		{argoSync{Dir: "sync/hc1"}, "/repo/xsync/hc1/idms.yaml", false},
		{argoSync{Dir: "sync/hc1"}, "sync/hc1/idms.yaml", true},
		{argoSync{Dir: ""}, "/repo/idms.yaml", false},
	} {
		if got := tc.s.synced(tc.file); got != tc.want {
			t.Errorf("%+v %s: %v, want %v", tc.s, tc.file, got, tc.want)
		}
	}
}
