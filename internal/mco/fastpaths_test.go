package mco

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/containers/image/v5/docker/reference"
	"github.com/containers/image/v5/pkg/sysregistriesv2"
	"github.com/opencontainers/go-digest"
	yaml "go.yaml.in/yaml/v2"
)

// randomKey draws registry-like strings from an alphabet rich in the
// characters yaml.v2's natural order treats specially (digit runs, zeros,
// letters against punctuation).
func randomKey(r *rand.Rand) string {
	parts := []string{"a", "b", "Z", "0", "00", "1", "10", "9", "007", ".", "/", "-", "_", ":", "@", "registry", "quay.io", "x1", "x01", "*.", "123.45", "on", "true", "é", " ", "#", "'"}
	var b strings.Builder
	for n := 1 + r.IntN(6); n > 0; n-- {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

// TestFastSigstoreYAMLMatchesYAMLv2 compares the hand-written encoder with
// yaml.v2 on random key sets: where it accepts the keys, the bytes must
// be identical.
func TestFastSigstoreYAMLMatchesYAMLv2(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	accepted := 0
	for i := 0; i < 3000; i++ {
		keys := map[string]bool{}
		for n := 1 + r.IntN(12); n > 0; n-- {
			keys[randomKey(r)] = true
		}
		if r.IntN(3) == 0 {
			// Mostly plain keys, so that the fast path is exercised often.
			keys = map[string]bool{}
			for n := 1 + r.IntN(12); n > 0; n-- {
				keys[fmt.Sprintf("registry%d.example.com/a%d/b%03d", r.IntN(30), r.IntN(120), r.IntN(20))] = true
			}
		}
		var list []string
		for k := range keys {
			list = append(list, k, k) // repeats, as the renderer collects them
		}
		fast, ok := fastSigstoreYAML(uniqueNatural(list))
		if !ok {
			continue
		}
		accepted++
		docker := map[any]any{}
		for k := range keys {
			docker[k] = map[any]any{"use-sigstore-attachments": true}
		}
		want, err := yaml.Marshal(map[any]any{"docker": docker})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fast, want) {
			t.Fatalf("keys %v:\n--- fast\n%s--- yaml.v2\n%s", keys, fast, want)
		}
	}
	if accepted < 300 {
		t.Errorf("the fast path accepted only %d key sets", accepted)
	}
}

// TestFastEncodePolicyMatchesJSON compares the policy encoder with
// json.MarshalIndent on random documents (shared requirement values,
// scopes needing escapes, transports with and without common scopes).
func TestFastEncodePolicyMatchesJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	reqs := []any{reqAcceptAnything, reqReject,
		&prSigstoreSigned{Type: "sigstoreSigned", KeyData: []byte("<key>&\n"), SignedIdentity: &prmSimple{Type: "matchRepository"}},
		&prSigstoreSigned{Type: "sigstoreSigned", Fulcio: &prFulcio{CAData: []byte("ca"), OIDCIssuer: "https://i/?a=b&c=<d>", SubjectEmail: "x@y"}, RekorPublicKeyData: []byte("r"),
			SignedIdentity: &prmRemapIdentity{Type: "remapIdentity", Prefix: "a.io", SignedPrefix: "b.io"}},
		&prSigstoreSigned{Type: "sigstoreSigned", PKI: &prPKI419{CARootsData: []byte("c"), SubjectEmail: "e@x"}, SignedIdentity: &prmExactRepository{Type: "exactRepository", DockerRepository: "q.io/a"}},
	}
	for i := 0; i < 2000; i++ {
		p := templatePolicy()
		if r.IntN(2) == 0 {
			p.Default = []any{reqReject}
		}
		for _, tr := range []string{"docker", "atomic", "x"} {
			if r.IntN(3) == 0 {
				continue
			}
			m := map[string][]any{}
			for n := r.IntN(6); n > 0; n-- {
				var list []any
				for k := r.IntN(3); k >= 0; k-- {
					list = append(list, reqs[r.IntN(len(reqs))])
				}
				if r.IntN(10) == 0 {
					list = []any{}
				}
				m[randomKey(r)] = list
			}
			p.Transports[tr] = m
		}
		for _, indent := range []string{"  ", " "} {
			fast, ok := fastEncodePolicy(p, indent)
			want, err := json.MarshalIndent(p, "", indent)
			if err != nil || !ok {
				t.Fatalf("encode: ok %v, err %v", ok, err)
			}
			if !bytes.Equal(fast, want) {
				t.Fatalf("--- fast\n%s\n--- json\n%s", fast, want)
			}
		}
	}
}

// TestPlainCanonicalName checks the shortcut against the library: every
// name it accepts parses with reference.ParseNamed to itself.
func TestPlainCanonicalName(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	parts := []string{"a", "b", "0", "-", "--", ".", "..", "_", "__", "___", "/", ":", "5000", "docker.io", "quay.io", "localhost", "Z", "x.y", "@", ".-"}
	hosts := []string{"quay.io", "m.example.com", "x-y.io:5000", "localhost:5000", "a..b.io", "-a.io", "a.io:", "docker.io", "index.docker.io", "Q.io", "a_b.io", "host"}
	accepted := 0
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteString(hosts[r.IntN(len(hosts))])
			b.WriteByte('/')
		}
		for n := 1 + r.IntN(7); n > 0; n-- {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		if !plainCanonicalName(s) {
			continue
		}
		accepted++
		named, err := reference.ParseNamed(s)
		if err != nil || named.Name() != s {
			t.Fatalf("%q accepted, but ParseNamed gives %v, %v", s, named, err)
		}
	}
	if accepted < 300 {
		t.Errorf("only %d names accepted", accepted)
	}
}

// TestPullSourceNamesMatchesLibrary compares pullSourceNames with
// containers/image's PullSourcesFromReference on random entries: the same
// names in the same order, or the same error.
func TestPullSourceNamesMatchesLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	locs := []string{"m.example.com/x", "m.example.com", "m2.example.com:5000/a/b", "docker.io/library", "docker.io", "M.example.com/x", "m.example.com/X", "m.example.com/x/", "", "localhost/x"}
	prefixes := []string{"quay.io/acme", "quay.io", "*.example.net", "quay.io/acme/app"}
	names := []string{"quay.io/acme/app", "quay.io/acme/app/sub", "quay.io/acme", "matched.example.net/a", "quay.io/a"}
	pulls := []string{sysregistriesv2.MirrorByDigestOnly, sysregistriesv2.MirrorByTagOnly, ""}
	for i := 0; i < 3000; i++ {
		reg := sysregistriesv2.Registry{Prefix: prefixes[r.IntN(len(prefixes))], MirrorByDigestOnly: r.IntN(8) == 0}
		if !strings.HasPrefix(reg.Prefix, "*.") {
			reg.Location = reg.Prefix
		}
		for n := r.IntN(4); n > 0; n-- {
			m := sysregistriesv2.Endpoint{Location: locs[r.IntN(len(locs))]}
			if !reg.MirrorByDigestOnly {
				m.PullFromMirror = pulls[r.IntN(len(pulls))]
			}
			if m.Location == "" {
				continue
			}
			reg.Mirrors = append(reg.Mirrors, m)
		}
		name := names[r.IntN(len(names))]
		repo, err := reference.ParseNamed(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, byDigest := range []bool{true, false} {
			var ref reference.Named
			if byDigest {
				ref, _ = reference.WithDigest(repo, digest.Digest("sha256:"+strings.Repeat("a", 64)))
			} else {
				ref, _ = reference.WithTag(repo, probeTag)
			}
			got, gotErr := pullSourceNames(&reg, name, byDigest, func(bool) (reference.Named, error) { return ref, nil })
			ps, wantErr := reg.PullSourcesFromReference(ref)
			var want []string
			for _, s := range ps {
				n := s.Reference.Name()
				if s.Endpoint.Location == "" {
					n = ""
				}
				want = append(want, n)
			}
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || (wantErr == nil && strings.Join(got, ",") != strings.Join(want, ",")) {
				t.Fatalf("%+v %s (digest %v):\n got %q %v\nwant %q %v", reg, name, byDigest, got, gotErr, want, wantErr)
			}
		}
	}
}

// TestRadixSort compares the scope sort with slices.Sort.
func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for i := 0; i < 300; i++ {
		seen := map[string]bool{}
		var keys []string
		for n := r.IntN(400); n > 0; n-- {
			k := fmt.Sprintf("registry%d.example.com/team%d/%s", r.IntN(3), r.IntN(50), randomKey(r))
			if r.IntN(5) == 0 {
				k = k[:r.IntN(len(k)+1)]
			}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		radixSort(keys, make([]string, len(keys)), 0)
		if !slices.Equal(keys, want) {
			t.Fatalf("radixSort:\n got %q\nwant %q", keys, want)
		}
	}
}
