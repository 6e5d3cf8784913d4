package manifest

import (
	"os"
	"runtime"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/contentcache"
)

func TestMain(m *testing.M) {
	code := m.Run()
	benchrepo.Cleanup()
	os.Exit(code)
}

// BenchmarkLoad10k loads the shared 10,000-file repository (95% ordinary
// workloads, 5% mirror files; see package benchrepo), generated once per
// test binary.
func BenchmarkLoad10k(b *testing.B) {
	r, err := benchrepo.Get(10000)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var s *Set
	for i := 0; i < b.N; i++ {
		s = mustLoad(b, []string{r.Dir}, Options{})
	}
	b.StopTimer()
	if len(s.Files) != r.Files || len(s.Objects) != r.MirrorObjects || len(s.Problems) != 0 {
		b.Fatalf("files %d objects %d problems %v", len(s.Files), len(s.Objects), s.Problems)
	}
	b.ReportMetric(float64(r.Files)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MiB-live-after")
	runtime.KeepAlive(s)
}

// BenchmarkCachedLoad10k loads the same repository with every file's
// result in the cache and its blob id known (as git's index gives it): the
// load of an unchanged tree, which decodes entries instead of parsing.
func BenchmarkCachedLoad10k(b *testing.B) {
	r, err := benchrepo.Get(10000)
	if err != nil {
		b.Fatal(err)
	}
	pack := contentcache.Open(b.TempDir(), "bench", CacheFormat)
	opts := Options{Unmodelled: UnmodelledImages, Cache: pack}
	want := mustLoad(b, []string{r.Dir}, opts)
	ids := map[string]string{}
	for _, f := range want.Files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		ids[f] = BlobID(data)
	}
	opts.Blobs = func(p string) (string, bool) { id, ok := ids[p]; return id, ok }
	b.ReportAllocs()
	var s *Set
	for b.Loop() {
		s = mustLoad(b, []string{r.Dir}, opts)
	}
	if len(s.Objects) != len(want.Objects) || len(s.Problems) != 0 {
		b.Fatalf("objects %d, want %d; problems %v", len(s.Objects), len(want.Objects), s.Problems)
	}
}
