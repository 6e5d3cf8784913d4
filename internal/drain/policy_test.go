package drain

import (
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/render"
)

// policy.json is covered by the default "reload crio" disruption policy:
// any change to it is a reason that does not drain.
func TestPolicyJSONChangeReloadsOnly(t *testing.T) {
	conf := nodefiles.RegistriesConf()
	blocked := &render.Output{RegistriesConf: conf, PolicyJSON: []byte(`{"default": [{"type": "insecureAcceptAnything"}]}`)}
	other := &render.Output{RegistriesConf: conf, PolicyJSON: []byte(`{"default": [{"type": "reject"}]}`)}
	none := &render.Output{RegistriesConf: conf}
	for _, tc := range []struct {
		name     string
		old, new *render.Output
	}{
		{"written", none, blocked},
		{"written from nothing", nil, blocked},
		{"changed", blocked, other},
		{"dropped", blocked, none},
	} {
		v := Compare(tc.old, tc.new)
		if v.Drain || v.Reboot || len(v.Reasons) != 1 || v.Reasons[0].File != PolicyJSONPath || v.Reasons[0].Drain {
			t.Errorf("%s: %+v", tc.name, v)
		}
	}
	if v := Compare(none, nil); len(v.Reasons) != 0 {
		t.Errorf("no policy.json on either side is no change: %+v", v.Reasons)
	}
}
