package project

import (
	"runtime"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

func TestScratchMem(t *testing.T) {
	r, err := benchrepo.Get(10000)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []manifest.Unmodelled{manifest.UnmodelledNone, manifest.UnmodelledImages, manifest.UnmodelledAll} {
		runtime.GC()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		p, err := Open(Options{Paths: []string{r.Dir}, ConfigPath: "none", Unmodelled: mode})
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&b)
		n := 0
		for _, c := range p.Clusters {
			n += len(c.Objects)
		}
		t.Logf("mode %d: live %d MB, %d objects in clusters, %d in set, %d discovered", mode, (int64(b.HeapAlloc)-int64(a.HeapAlloc))>>20, n, len(p.Set.Objects), len(p.Discovery.Set.Objects))
		runtime.KeepAlive(p)
	}
}
