package mco

import (
	"fmt"
	"testing"
	"time"

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

// benchPolicies adds 20 ClusterImagePolicies of 256 scopes each (the CRD's
// maximum) to in: every fourth scope is one of the mirror sources (so the
// registries.d file lists its mirrors), the others are repositories of the
// same registries, and each policy has its own key.
func benchPolicies(in Input, sources int) Input {
	for p := 0; p < 20; p++ {
		cip := &configv1.ClusterImagePolicy{}
		cip.Name = fmt.Sprintf("policy-%02d", p)
		key := []byte(fmt.Sprintf("-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE%04d\n-----END PUBLIC KEY-----\n", p))
		cip.Spec.Policy = configv1.Policy{RootOfTrust: configv1.PolicyRootOfTrust{PolicyType: configv1.PublicKeyRootOfTrust, PublicKey: &configv1.PublicKey{KeyData: key}}}
		for s := 0; s < 256; s++ {
			i := (p*256 + s) % sources
			scope := fmt.Sprintf("registry%d.example.com/team%d/app%d", i%97, i, i)
			if s%4 != 0 {
				scope = fmt.Sprintf("registry%d.example.com/signed%d/repo%d", i%97, p, s)
			}
			cip.Spec.Scopes = append(cip.Spec.Scopes, configv1.ImageScope(scope))
		}
		in.ClusterImagePolicies = append(in.ClusterImagePolicies, cip)
	}
	return in
}

// The target: rendering 2,000 mirror entries with 256 scopes × 20
// ClusterImagePolicies takes at most twice as long as without policies
// (compare BenchmarkRender2kPolicies with BenchmarkRender2k). Both run as
// 4.20, which has no default policy.
func BenchmarkRender2k(b *testing.B) {
	in := benchInput(2000)
	in.Version = Version{Minor: 20, Patch: -1}
	benchRenderInput(b, in)
}

func BenchmarkRender2kPolicies(b *testing.B) {
	in := benchPolicies(benchInput(2000), 2000)
	in.Version = Version{Minor: 20, Patch: -1}
	benchRenderInput(b, in)
}

func benchRenderInput(b *testing.B, in Input) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPolicyOverhead renders the two inputs above alternately and
// reports how many times longer the one with policies takes (target: at
// most 2), so that load on a shared machine affects both alike.
func BenchmarkPolicyOverhead(b *testing.B) {
	base := benchInput(2000)
	base.Version = Version{Minor: 20, Patch: -1}
	pol := benchPolicies(base, 2000)
	var tBase, tPol time.Duration
	for b.Loop() {
		for _, c := range []struct {
			in Input
			t  *time.Duration
		}{{base, &tBase}, {pol, &tPol}} {
			start := time.Now()
			if _, err := Render(c.in); err != nil {
				b.Fatal(err)
			}
			*c.t += time.Since(start)
		}
	}
	b.ReportMetric(float64(tPol)/float64(tBase), "x-without-policies")
}
