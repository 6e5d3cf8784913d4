package render

import (
	"fmt"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
)

// benchInput builds n sources with 3 mirrors each, spread over IDMS objects
// of 100 entries; every fourth source is nested under the previous one, and
// a blocked scope is nested under every tenth source so that the copy step
// has work to do.
func benchInput(n int) Input {
	var in Input
	var cur *configv1.ImageDigestMirrorSet
	blocked := []string{}
	for i := 0; i < n; i++ {
		if i%100 == 0 {
			cur = &configv1.ImageDigestMirrorSet{}
			cur.Name = fmt.Sprintf("idms-%05d", i/100)
			in.IDMSs = append(in.IDMSs, cur)
		}
		src := fmt.Sprintf("registry%d.example.com/team%d/app%d", i%97, i, i)
		if i%4 == 3 {
			src = fmt.Sprintf("registry%d.example.com/team%d/app%d/nested", (i-1)%97, i-1, i-1)
		}
		mirrors := make([]configv1.ImageMirror, 3)
		for k := range mirrors {
			mirrors[k] = configv1.ImageMirror(fmt.Sprintf("mirror%d.corp.example.net/m%d/%s", k, i, src))
		}
		cur.Spec.ImageDigestMirrors = append(cur.Spec.ImageDigestMirrors, configv1.ImageDigestMirrors{Source: src, Mirrors: mirrors})
		if i%10 == 0 {
			blocked = append(blocked, src+"/blocked")
		}
	}
	in.Image = &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{BlockedRegistries: blocked}}
	return in
}

func benchRender(b *testing.B, n int) {
	in := benchInput(n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Render(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRender1k(b *testing.B)  { benchRender(b, 1000) }
func BenchmarkRender10k(b *testing.B) { benchRender(b, 10000) }
func BenchmarkRender20k(b *testing.B) { benchRender(b, 20000) }
