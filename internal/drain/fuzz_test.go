package drain

import (
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/render"
)

func FuzzCompare(f *testing.F) {
	f.Add([]byte(head+regA+mDig), []byte(head+regA+mDig+nTag), []byte(nil), []byte("x"))
	f.Add([]byte(render.Template()), []byte("[[registry]]\nprefix = \"*.a\"\n"), []byte(nil), []byte(nil))
	f.Add([]byte("[[["), []byte(""), []byte("a"), []byte("a"))
	f.Fuzz(func(t *testing.T, oldConf, newConf, oldSearch, newSearch []byte) {
		oldC, err1 := render.DecodeConf(oldConf)
		newC, err2 := render.DecodeConf(newConf)
		if err1 != nil || err2 != nil {
			t.Skip("render only writes files that decode")
		}
		old := &render.Output{RegistriesConf: oldConf, SearchRegistriesConf: oldSearch, Config: oldC}
		cur := &render.Output{RegistriesConf: newConf, SearchRegistriesConf: newSearch, Config: newC}
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
