package policy

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// BenchmarkEvaluate measures one evaluation (input conversion, the prepared
// query over the built-in library with data and the fixture user policy,
// finding conversion) for a cluster of 300 objects.
func BenchmarkEvaluate(b *testing.B) {
	dir := b.TempDir()
	for i := range 100 {
		var y strings.Builder
		fmt.Fprintf(&y, `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: digests-%d
spec:
  imageDigestMirrors:
`, i)
		for j := range 5 {
			fmt.Fprintf(&y, "  - source: quay.io/team%d/app%d\n    mirrors:\n    - registry.acme.example/team%d/app%d\n    - other.example/team%d/app%d\n", i, j, i, j, i, j)
		}
		fmt.Fprintf(&y, `---
apiVersion: config.openshift.io/v1
kind: ImageTagMirrorSet
metadata:
  name: tags-%d
spec:
  imageTagMirrors:
  - source: docker.io/team%d
    mirrors: [registry.acme.example/docker/team%d]
---
apiVersion: operator.openshift.io/v1alpha1
kind: ImageContentSourcePolicy
metadata:
  name: legacy-%d
spec:
  repositoryDigestMirrors:
  - source: registry.redhat.io/team%d
    mirrors: [registry.acme.example/redhat/team%d]
`, i, i, i, i, i, i)
		testtree.WriteFile(b, filepath.Join(dir, fmt.Sprintf("m%03d.yaml", i)), y.String())
	}
	c := loadFixture(b, dir)
	if n := len(c.Cluster.Objects); n != 300 {
		b.Fatalf("%d objects", n)
	}
	e := mustLoad(b, Options{Builtin: true, Dirs: []string{"testdata/policies"},
		DataFiles: []string{"testdata/data/org.yaml", "testdata/data/tags.json"}})
	b.ReportAllocs()
	b.ResetTimer()
	var n int
	for b.Loop() {
		fs, err := e.Evaluate(c)
		if err != nil {
			b.Fatal(err)
		}
		n = len(fs)
	}
	b.ReportMetric(float64(n), "findings")
}
