package mco

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/containers/image/v5/pkg/sysregistriesv2"
	"github.com/containers/image/v5/types"
	configv1 "github.com/openshift/api/config/v1"

	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
)

// TestFastEncodeMatchesTOML checks the hand-written encoder against
// BurntSushi's on random configurations of every shape it accepts.
func TestFastEncodeMatchesTOML(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"", "a.io", "*.b.io", "c.io/x/y", "d.io:5000/z", "digest-only", "tag-only"}
	pick := func() string { return words[rng.Intn(len(words))] }
	for i := 0; i < 2000; i++ {
		var conf sysregistriesv2.V2RegistriesConf
		if rng.Intn(3) > 0 {
			conf.UnqualifiedSearchRegistries = []string{pick(), pick()}[:1+rng.Intn(2)]
		}
		conf.ShortNameMode = []string{"", "enforcing"}[rng.Intn(2)]
		for r := rng.Intn(4); r > 0; r-- {
			reg := sysregistriesv2.Registry{Prefix: pick(), Blocked: rng.Intn(2) == 0, MirrorByDigestOnly: rng.Intn(4) == 0}
			reg.Location, reg.Insecure, reg.PullFromMirror = pick(), rng.Intn(2) == 0, []string{"", "all"}[rng.Intn(2)]
			for m := rng.Intn(3); m > 0; m-- {
				reg.Mirrors = append(reg.Mirrors, sysregistriesv2.Endpoint{Location: pick(), Insecure: rng.Intn(2) == 0, PullFromMirror: pick()})
			}
			conf.Registries = append(conf.Registries, reg)
		}
		for _, v := range []Version{{Minor: 18, Patch: -1}, Newest} {
			fast, ok := fastEncode(&conf, v.AtLeast(19))
			if !ok {
				t.Fatalf("fastEncode declined %+v", conf)
			}
			ref, err := tomlEncode(&conf, v)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(fast, ref) {
				t.Fatalf("%v: fast encoder differs:\n%s\n--- toml\n%s", v, fast, ref)
			}
			// What the rules take instead of decoding the file.
			if readsBack(&conf) {
				back, err := nodefiles.Decode(fast)
				if err != nil || !reflect.DeepEqual(back, conf) {
					t.Fatalf("%v: said to read back, decodes to %+v (%v), encoded from %+v", v, back, err, conf)
				}
			}
		}
	}
	// The one shape that does not read back: a mirror list empty but not nil.
	empty := sysregistriesv2.V2RegistriesConf{Registries: []sysregistriesv2.Registry{{Prefix: "a.io", Mirrors: []sysregistriesv2.Endpoint{}}}}
	fast, ok := fastEncode(&empty, true)
	if back, err := nodefiles.Decode(fast); !ok || err != nil || reflect.DeepEqual(back, empty) {
		t.Fatalf("an empty mirror list: encoded %v, decodes to %+v (%v)", ok, back, err)
	}
	if readsBack(&empty) {
		t.Fatal("readsBack says an empty mirror list reads back, and it decodes as none")
	}
	if _, ok := fastEncode(&sysregistriesv2.V2RegistriesConf{Registries: []sysregistriesv2.Registry{{Endpoint: sysregistriesv2.Endpoint{Location: `q"uote`}}}}, true); ok {
		t.Fatal("fastEncode must decline strings that need escaping")
	}
}

// fuzzInput turns fuzzer strings into an Input: entries "src=m1|m2" separated
// by ";" (kind chosen by flags), scopes separated by ",".
func fuzzInput(entries, insecure, blocked, allowed string, flags uint8) Input {
	in := Input{Version: []Version{Newest, {Minor: 15, Patch: -1}, {Minor: 13, Patch: 2}, {Minor: 18, Patch: -1}}[flags&3]}
	if flags&4 != 0 {
		in.ReleaseImage = testRelease
	}
	split := func(s, sep string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, sep)
	}
	for i, e := range split(entries, ";") {
		src, ms, _ := strings.Cut(e, "=")
		mirrors := split(ms, "|")
		var policy configv1.MirrorSourcePolicy
		if (int(flags)>>4+i)%3 == 0 {
			policy = configv1.NeverContactSource
		}
		switch (int(flags)>>3 + i) % 3 {
		case 0:
			in.IDMSs = append(in.IDMSs, idms(string(rune('a'+i%26)), ent{src: src, mirrors: mirrors, policy: policy}))
		case 1:
			in.ITMSs = append(in.ITMSs, itms(string(rune('z'-i%26)), ent{src: src, mirrors: mirrors, policy: policy}))
		default:
			in.ICSPs = append(in.ICSPs, icsp("p", ent{src: src, mirrors: mirrors}))
		}
	}
	if insecure != "" || blocked != "" || allowed != "" || flags&128 != 0 {
		in.Image = &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
			InsecureRegistries: split(insecure, ","), BlockedRegistries: split(blocked, ","), AllowedRegistries: split(allowed, ","),
		}}
		if flags&128 != 0 {
			in.Image.RegistrySources.ContainerRuntimeSearchRegistries = []string{"quay.io"}
		}
	}
	return in
}

// nodeRejections are the ways a file MCO writes can still be refused by
// containers/image on the node (domain.md origin N): scheme-prefixed or
// otherwise unparsable locations, and one location listed twice with
// conflicting flags.
var nodeRejections = []string{"invalid location", "defined multiple times", "location is unset", "Wildcarded prefix should be in the format", "invalid prefix"}

func FuzzRender(f *testing.F) {
	f.Add("q.io/a=m.io/a|n.io/a;q.io/a/b=m2.io/b", "", "q.io/a/b/c", "", uint8(0))
	f.Add("*.example.com=m.io/w", "foo.example.com", "", "", uint8(0))
	f.Add("quay.io/openshift-release-dev/ocp-release=m.io/r", "", "quay.io,m.io", "", uint8(4))
	f.Add("q.io/a=z.io/a|q.io/a|b.io/a;q.io/a=b.io/a|z.io/a", "http://x.io", "", "a.io", uint8(9))
	f.Add("", "", "", "", uint8(128))
	f.Fuzz(func(t *testing.T, entries, insecure, blocked, allowed string, flags uint8) {
		// Objects reach MCO through JSON, whose strings are valid UTF-8.
		for _, s := range []string{entries, insecure, blocked, allowed} {
			if !utf8.ValidString(s) {
				t.Skip("invalid UTF-8 cannot come from the API server")
			}
		}
		in := fuzzInput(entries, insecure, blocked, allowed, flags)
		plan := NewPlan(in)
		out, err := plan.Render()
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("non-Refusal error %T: %v", err, err)
			}
			return
		}
		if !out.Generated {
			if !bytes.Equal(out.RegistriesConf, nodefiles.RegistriesConf()) {
				t.Fatalf("not generated but not the template: %q", out.RegistriesConf)
			}
			return
		}
		v := in.Version
		if v.IsZero() {
			v = Newest
		}
		// The fast encoder must write what BurntSushi's encoder writes for
		// the same configuration.
		conf := decodedConf(t, out)
		if ref, err := tomlEncode(&conf, v); err != nil || !bytes.Equal(ref, out.RegistriesConf) {
			t.Fatalf("output differs from the reference encoder (%v):\n%s\n---\n%s", err, out.RegistriesConf, ref)
		}
		if w := plan.WrittenRegistries(); w != nil && !reflect.DeepEqual(*w, conf) {
			t.Fatalf("the value kept for the rules is not what the file decodes to:\n%+v\n---\n%+v", *w, conf)
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "registries.conf")
		if err := os.WriteFile(path, out.RegistriesConf, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(dir, "d"), 0o700); err != nil {
			t.Fatal(err)
		}
		ctx := &types.SystemContext{SystemRegistriesConfPath: path, SystemRegistriesConfDirPath: filepath.Join(dir, "d")}
		_, err = sysregistriesv2.TryUpdatingCache(ctx)
		sysregistriesv2.InvalidateCache()
		if err != nil {
			for _, known := range nodeRejections {
				if strings.Contains(err.Error(), known) {
					return
				}
			}
			t.Fatalf("containers/image rejects the output: %v\n%s", err, out.RegistriesConf)
		}
	})
}
