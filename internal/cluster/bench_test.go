package cluster

import (
	"os"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	benchrepo.Cleanup()
	os.Exit(code)
}

// BenchmarkDiscover10k discovers the clusters of the shared 10,000-file
// repository (package benchrepo: four overlays on a shared base, and an
// apps/ tree that no kustomization reaches), reporting the kustomize builds
// separately from reading the tree and from tracing objects to their files.
func BenchmarkDiscover10k(b *testing.B) {
	r, err := benchrepo.Get(10000)
	if err != nil {
		b.Fatal(err)
	}
	// The same tree read as plain files, for comparison.
	plainStart := time.Now()
	if _, err := manifest.Load([]string{r.Dir}, manifest.Options{}); err != nil {
		b.Fatal(err)
	}
	plain := time.Since(plainStart)
	b.ReportAllocs()
	b.ResetTimer()
	var st Stats
	for i := 0; i < b.N; i++ {
		res, err := Discover(Options{Paths: []string{r.Dir}})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Clusters) != r.Clusters {
			b.Fatalf("%d clusters, want %d", len(res.Clusters), r.Clusters)
		}
		st.Load += res.Stats.Load
		st.Build += res.Stats.Build
		st.Remap += res.Stats.Remap
		st.Builds = res.Stats.Builds
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(per(st.Load), "load-ms/op")
	b.ReportMetric(per(st.Build), "build-ms/op")
	b.ReportMetric(per(st.Build)/float64(st.Builds), "ms/build")
	b.ReportMetric(per(st.Remap), "remap-ms/op")
	b.ReportMetric(float64(plain.Microseconds())/1000, "plain-load-ms")
}
