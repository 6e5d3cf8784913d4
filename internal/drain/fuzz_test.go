package drain

import (
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
	"github.com/mirrorlint/mirrorlint/render"
)

func FuzzCompare(f *testing.F) {
	f.Add([]byte(head+regA+mDig), []byte(head+regA+mDig+nTag), []byte(nil), []byte("x"))
	f.Add([]byte(nodefiles.RegistriesConf()), []byte("[[registry]]\nprefix = \"*.a\"\n"), []byte(nil), []byte(nil))
	f.Add([]byte("[[["), []byte(""), []byte("a"), []byte("a"))
	f.Fuzz(func(t *testing.T, oldConf, newConf, oldSearch, newSearch []byte) {
		_, err1 := nodefiles.Decode(oldConf)
		_, err2 := nodefiles.Decode(newConf)
		if err1 != nil || err2 != nil {
			t.Skip("render only writes files that decode")
		}
		old := &render.Output{RegistriesConf: oldConf, SearchRegistriesConf: oldSearch}
		cur := &render.Output{RegistriesConf: newConf, SearchRegistriesConf: newSearch}
		v := Compare(old, cur)
		anyDrain := false
		for _, r := range v.Reasons {
			anyDrain = anyDrain || r.Drain
		}
		if v.Drain != anyDrain || (v.Reboot && !v.Drain) {
			t.Fatalf("inconsistent verdict %+v", v)
		}
		if same := Compare(old, old); same.Drain || len(same.Reasons) != 0 {
			t.Fatalf("comparing a file with itself: %+v", same)
		}
	})
}
