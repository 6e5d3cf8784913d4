package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// benchRepo writes a GitOps repository of files files: a base of 100
// IDMS files, four overlays (25 IDMS files and a JSON 6902 patch each),
// and an apps/ tree of plain files (mostly workloads, every 50th an IDMS)
// that no kustomization reaches.
func benchRepo(b *testing.B, files int) string {
	b.Helper()
	root := b.TempDir()
	n := 0
	put := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		n++
	}
	idms := func(name, source string) string {
		return fmt.Sprintf(`apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: %s
spec:
  imageDigestMirrors:
    - source: %s
      mirrors:
        - mirror.example.com/%s
`, name, source, name)
	}
	var res []string
	for i := 0; i < 100; i++ {
		f := fmt.Sprintf("idms-%03d.yaml", i)
		put("base/"+f, idms(fmt.Sprintf("base-%03d", i), fmt.Sprintf("registry.example.com/team%03d", i)))
		res = append(res, "  - "+f)
	}
	put("base/kustomization.yaml", "resources:\n"+strings.Join(res, "\n")+"\n")
	for _, o := range []string{"prod", "dev", "stage", "qa"} {
		res := []string{"  - ../../base"}
		for i := 0; i < 25; i++ {
			f := fmt.Sprintf("idms-%s-%02d.yaml", o, i)
			put("overlays/"+o+"/"+f, idms(fmt.Sprintf("%s-%02d", o, i), fmt.Sprintf("registry.example.com/%s/%02d", o, i)))
			res = append(res, "  - "+f)
		}
		put("overlays/"+o+"/never-contact.yaml", "- op: add\n  path: /spec/imageDigestMirrors/0/mirrorSourcePolicy\n  value: NeverContactSource\n")
		put("overlays/"+o+"/kustomization.yaml", "resources:\n"+strings.Join(res, "\n")+
			"\npatches:\n  - path: never-contact.yaml\n    target:\n      kind: ImageDigestMirrorSet\n      name: base-000\n")
	}
	for i := 0; n < files; i++ {
		rel := fmt.Sprintf("apps/team%02d/app-%05d.yaml", i%40, i)
		if i%50 == 0 {
			put(rel, idms(fmt.Sprintf("app-%05d", i), fmt.Sprintf("registry.example.com/apps/%05d", i)))
			continue
		}
		put(rel, fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-%05d
spec:
  template:
    spec:
      containers:
        - name: app
          image: registry.example.com/apps/%05d@sha256:0000000000000000000000000000000000000000000000000000000000000000
`, i, i))
	}
	return root
}

// BenchmarkDiscover10k discovers the clusters of a 10,000-file repository
// with four overlays on a shared base, reporting the kustomize builds
// separately from reading the tree and from tracing objects to their files.
func BenchmarkDiscover10k(b *testing.B) {
	root := benchRepo(b, 10000)
	// The same tree read as plain files, for comparison.
	plainStart := time.Now()
	if _, err := manifest.Load([]string{root}, manifest.Options{}); err != nil {
		b.Fatal(err)
	}
	plain := time.Since(plainStart)
	b.ResetTimer()
	var st Stats
	for i := 0; i < b.N; i++ {
		res, err := Discover(Options{Paths: []string{root}})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Clusters) != 5 {
			b.Fatalf("%d clusters", len(res.Clusters))
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
