package mco

import (
	"errors"
	"strings"
	"testing"

	"github.com/containers/image/v5/pkg/sysregistriesv2"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"

	"github.com/mirrorlint/mirrorlint/internal/nodefiles"
)

const testRelease = "quay.io/openshift-release-dev/ocp-release@sha256:378b75ebb15cbbd98e213896d6782dc99f2d76f3b212a7e261e42f214f4fdf90"

type ent struct {
	src     string
	mirrors []string
	policy  configv1.MirrorSourcePolicy
}

// imageMirrors are e's mirrors as the IDMS and ITMS types hold them.
func (e ent) imageMirrors() []configv1.ImageMirror {
	var ms []configv1.ImageMirror
	for _, m := range e.mirrors {
		ms = append(ms, configv1.ImageMirror(m))
	}
	return ms
}

func idms(name string, es ...ent) *configv1.ImageDigestMirrorSet {
	o := &configv1.ImageDigestMirrorSet{}
	o.Name = name
	for _, e := range es {
		o.Spec.ImageDigestMirrors = append(o.Spec.ImageDigestMirrors, configv1.ImageDigestMirrors{Source: e.src, Mirrors: e.imageMirrors(), MirrorSourcePolicy: e.policy})
	}
	return o
}

func itms(name string, es ...ent) *configv1.ImageTagMirrorSet {
	o := &configv1.ImageTagMirrorSet{}
	o.Name = name
	for _, e := range es {
		o.Spec.ImageTagMirrors = append(o.Spec.ImageTagMirrors, configv1.ImageTagMirrors{Source: e.src, Mirrors: e.imageMirrors(), MirrorSourcePolicy: e.policy})
	}
	return o
}

func icsp(name string, es ...ent) *operatorv1alpha1.ImageContentSourcePolicy {
	o := &operatorv1alpha1.ImageContentSourcePolicy{}
	o.Name = name
	for _, e := range es {
		o.Spec.RepositoryDigestMirrors = append(o.Spec.RepositoryDigestMirrors, operatorv1alpha1.RepositoryDigestMirrors{Source: e.src, Mirrors: e.mirrors})
	}
	return o
}

func mustRender(t *testing.T, in Input) *Output {
	t.Helper()
	out, err := Render(in)
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	return out
}

func entry(t *testing.T, out *Output, scope string) sysregistriesv2.Registry {
	t.Helper()
	for _, r := range decodedConf(t, out).Registries {
		if RegistryScope(&r) == scope {
			return r
		}
	}
	t.Fatalf("no entry %q in\n%s", scope, out.RegistriesConf)
	return sysregistriesv2.Registry{}
}

func locations(r sysregistriesv2.Registry) []string {
	var out []string
	for _, m := range r.Mirrors {
		s := m.Location + "(" + m.PullFromMirror
		if m.Insecure {
			s += ",insecure"
		}
		out = append(out, s+")")
	}
	return out
}

func TestEmissionCondition(t *testing.T) {
	// Nothing set: template bytes.
	out := mustRender(t, Input{ReleaseImage: testRelease})
	if out.Generated || string(out.RegistriesConf) != string(nodefiles.RegistriesConf()) {
		t.Fatalf("want template, got %q", out.RegistriesConf)
	}
	// Explicit empty insecure list: generated, without entries.
	out = mustRender(t, Input{Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{InsecureRegistries: []string{}}}})
	want := "unqualified-search-registries = [\"registry.access.redhat.com\", \"docker.io\"]\nshort-name-mode = \"\"\nadditional-layer-store-auth-helper = \"\"\n"
	if !out.Generated || string(out.RegistriesConf) != want {
		t.Fatalf("explicit empty insecure: Generated=%v %q", out.Generated, out.RegistriesConf)
	}
	// Explicit empty blocked list: MCO rebuilds it by appending, so nil.
	out = mustRender(t, Input{Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{BlockedRegistries: []string{}}}})
	if out.Generated {
		t.Fatal("explicit empty blocked list must not generate")
	}
	// A mirror set without a real mirror still makes MCO write the file.
	out = mustRender(t, Input{IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "q.io/a"})}})
	if !out.Generated || len(decodedConf(t, out).Registries) != 0 {
		t.Fatalf("object without mirrors: Generated=%v regs=%d", out.Generated, len(decodedConf(t, out).Registries))
	}
	// Payload-only blocked entry that gets dropped: nothing left to write.
	out = mustRender(t, Input{ReleaseImage: testRelease, Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{BlockedRegistries: []string{"quay.io"}}}})
	if out.Generated || len(out.Warnings) != 1 {
		t.Fatalf("dropped payload block: Generated=%v warnings=%v", out.Generated, out.Warnings)
	}
}

func TestEncodingPerVersion(t *testing.T) {
	in := Input{IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "q.io/a", mirrors: []string{"m.io/a"}})}}
	in.Version = Version{Minor: 18, Patch: -1}
	old := mustRender(t, in)
	in.Version = Version{Minor: 19, Patch: -1}
	cur := mustRender(t, in)
	if strings.Contains(string(old.RegistriesConf), "additional-layer-store-auth-helper") {
		t.Fatalf("4.18 must not write the ALS key:\n%s", old.RegistriesConf)
	}
	if strings.Replace(string(cur.RegistriesConf), string(alsHelperLine), "", 1) != string(old.RegistriesConf) {
		t.Fatalf("4.19 should differ only by the ALS key:\n%s\n---\n%s", cur.RegistriesConf, old.RegistriesConf)
	}
	in.Version = Version{}
	if zero := mustRender(t, in); string(zero.RegistriesConf) != string(cur.RegistriesConf) {
		t.Fatal("zero Version must render as Newest")
	}
	want := `unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]
short-name-mode = ""

[[registry]]
  prefix = ""
  location = "q.io/a"

  [[registry.mirror]]
    location = "m.io/a"
    pull-from-mirror = "digest-only"
`
	if string(old.RegistriesConf) != want {
		t.Fatalf("4.18 bytes:\n%s", old.RegistriesConf)
	}
}

func TestEntryOrderAndFlags(t *testing.T) {
	in := Input{
		IDMSs: []*configv1.ImageDigestMirrorSet{idms("b", ent{src: "z.io/app", mirrors: []string{"m.io/app"}, policy: configv1.NeverContactSource})},
		ITMSs: []*configv1.ImageTagMirrorSet{itms("a", ent{src: "a.io/app", mirrors: []string{"t.io/app"}}, ent{src: "z.io/app", mirrors: []string{"t.io/z"}, policy: configv1.NeverContactSource})},
		Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
			InsecureRegistries: []string{"ins.io", "m.io/app"},
			BlockedRegistries:  []string{"blk.io"},
		}},
	}
	out := mustRender(t, in)
	var scopes []string
	for _, r := range decodedConf(t, out).Registries {
		scopes = append(scopes, RegistryScope(&r))
	}
	// digest sources, tag-only sources, blocked, insecure.
	if got := strings.Join(scopes, " "); got != "z.io/app a.io/app blk.io ins.io m.io/app" {
		t.Fatalf("order: %s", got)
	}
	z := entry(t, out, "z.io/app")
	if !z.Blocked || strings.Join(locations(z), " ") != "m.io/app(digest-only,insecure) t.io/z(tag-only)" {
		t.Fatalf("z.io/app: blocked=%v %v", z.Blocked, locations(z))
	}
	if e := entry(t, out, "m.io/app"); !e.Insecure || e.Blocked {
		t.Fatalf("insecure entry: %+v", e)
	}
}

func TestPropagation(t *testing.T) {
	in := Input{
		IDMSs: []*configv1.ImageDigestMirrorSet{idms("a",
			ent{src: "q.io/a", mirrors: []string{"m1.io/a"}},
			ent{src: "q.io/a/b", mirrors: []string{"m2.io/b"}},
			ent{src: "w.example.com/x", mirrors: []string{"m.corp.example.com/x"}},
		)},
		Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
			InsecureRegistries: []string{"*.example.com"},
			BlockedRegistries:  []string{"q.io/a/b/c", "q.io/a/b"},
		}},
	}
	out := mustRender(t, in)
	// Nested blocked scope copies the FIRST-sorted enclosing source (q.io/a),
	// not the nearest one (q.io/a/b).
	c := entry(t, out, "q.io/a/b/c")
	if got := strings.Join(locations(c), " "); got != "m1.io/a/b/c(digest-only)" || !c.Blocked {
		t.Fatalf("q.io/a/b/c: blocked=%v mirrors %s", c.Blocked, got)
	}
	// Blocking a source with mirrors blocks it, mirrors untouched.
	if b := entry(t, out, "q.io/a/b"); !b.Blocked || len(b.Mirrors) != 1 {
		t.Fatalf("q.io/a/b: %+v", b)
	}
	// A wildcard insecure scope reaches entries and mirrors below it.
	w := entry(t, out, "w.example.com/x")
	if !w.Insecure || !w.Mirrors[0].Insecure {
		t.Fatalf("wildcard insecure: %+v", w)
	}
	if a := entry(t, out, "q.io/a"); a.Insecure || a.Blocked {
		t.Fatalf("q.io/a should be untouched: %+v", a)
	}
}

func TestRefusals(t *testing.T) {
	img := func(rs configv1.RegistrySources) *configv1.ImageSpec { return &configv1.ImageSpec{RegistrySources: rs} }
	for _, tc := range []struct {
		name string
		in   Input
		want string
		sub  Subject
	}{
		{"invalid insecure", Input{Image: img(configv1.RegistrySources{InsecureRegistries: []string{"ok.io", "*.x.io/p"}})},
			PrefixRegistries + `: invalid entry for insecure registries "*.x.io/p"`, Subject{KindImage, 0, "spec.registrySources.insecureRegistries[1]"}},
		{"invalid blocked", Input{Image: img(configv1.RegistrySources{BlockedRegistries: []string{""}})},
			PrefixRegistries + `: invalid entry for blocked registries ""`, Subject{KindImage, 0, "spec.registrySources.blockedRegistries[0]"}},
		{"source format, sorted objects", Input{IDMSs: []*configv1.ImageDigestMirrorSet{
			idms("b", ent{src: "q.io/Bad", mirrors: []string{"m.io/x"}}),
			idms("a", ent{src: "q.io/ok", mirrors: []string{"m.io/x"}}, ent{src: "q.io/x", mirrors: []string{"m.io/x", "M.io/Y"}}),
		}}, PrefixRegistries + `: invalid format for mirror "M.io/Y"`, Subject{KindIDMS, 1, "spec.imageDigestMirrors[1].mirrors[1]"}},
		{"icsp source format", Input{ICSPs: []*operatorv1alpha1.ImageContentSourcePolicy{icsp("a", ent{src: "quay.io/Org", mirrors: []string{"m.io/x"}})}},
			PrefixRegistries + `: invalid format for source "quay.io/Org"`, Subject{KindICSP, 0, "spec.repositoryDigestMirrors[0].source"}},
		{"conflicting policy", Input{
			IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "q.io/a", policy: configv1.NeverContactSource})},
			ITMSs: []*configv1.ImageTagMirrorSet{itms("a", ent{src: "q.io/a", mirrors: []string{"m.io/a"}})},
		}, PrefixRegistries + `: conflicting mirrorSourcePolicy is set for the same source "q.io/a" in imagedigestmirrorsets, imagetagmirrorsets, or imagecontentsourcepolicies`,
			Subject{KindITMS, 0, "spec.imageTagMirrors[0].source"}},
		{"never contact self", Input{IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "q.io/a", mirrors: []string{"m.io/a", "q.io/a"}, policy: configv1.NeverContactSource})}},
			PrefixRegistries + `: cannot set mirrorSourcePolicy: NeverContactSource if the source "q.io/a" is one of the mirrors`, Subject{KindIDMS, 0, "spec.imageDigestMirrors[0].mirrors[1]"}},
		{"wildcard source with nested scope", Input{
			IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "*.d.io", mirrors: []string{"m.io/d"}})},
			Image: img(configv1.RegistrySources{InsecureRegistries: []string{"foo.d.io"}}),
		}, PrefixRegistries + `: internal error: mirrorsAdjustedForNestedScope for a wildcard scope "*.d.io"`, Subject{KindIDMS, 0, "spec.imageDigestMirrors[0].source"}},
		{"unparseable release", Input{ReleaseImage: "Quay.io/UPPER:tag"}, ReasonReleaseImage, Subject{}},
		{"allowed and blocked", Input{ReleaseImage: testRelease, Image: img(configv1.RegistrySources{BlockedRegistries: []string{"b.io"}, AllowedRegistries: []string{"a.io"}})},
			PrefixPolicy + `: invalid images config: only one of AllowedRegistries or BlockedRegistries may be specified`, Subject{KindImage, 0, "spec.registrySources.allowedRegistries[0]"}},
		{"allowed and blocked, release unknown", Input{Image: img(configv1.RegistrySources{BlockedRegistries: []string{"b.io"}, AllowedRegistries: []string{"a.io"}})},
			PrefixPolicy + `: invalid images config: only one of AllowedRegistries or BlockedRegistries may be specified`, Subject{KindImage, 0, "spec.registrySources.allowedRegistries[0]"}},
		{"invalid allowed", Input{Image: img(configv1.RegistrySources{AllowedRegistries: []string{"a.io", "*.a.io:1"}})},
			PrefixPolicy + `: invalid entry for allowed registries "*.a.io:1"`, Subject{KindImage, 0, "spec.registrySources.allowedRegistries[1]"}},
		{"4.13 mix", Input{Version: Version{Minor: 13, Patch: 5},
			ICSPs: []*operatorv1alpha1.ImageContentSourcePolicy{icsp("a", ent{src: "q.io/a", mirrors: []string{"m.io/a"}})},
			ITMSs: []*configv1.ImageTagMirrorSet{itms("z"), itms("y")},
		}, PrefixRegistries + ": error: both imagecontentsourcepolicy and imagetagmirrorset exist", Subject{KindITMS, 1, "metadata.name"}},
		{"4.15 wildcard", Input{Version: Version{Minor: 15, Patch: -1}, IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "*.q.io", mirrors: []string{"m.io/a"}})}},
			PrefixRegistries + `: wildcard entries are not supported with mirror configuration "*.q.io"`, Subject{KindIDMS, 0, "spec.imageDigestMirrors[0].source"}},
		{"4.14 empty mirror", Input{Version: Version{Minor: 14, Patch: -1}, ICSPs: []*operatorv1alpha1.ImageContentSourcePolicy{icsp("a", ent{src: "q.io/Any", mirrors: []string{""}})}},
			PrefixRegistries + `: invalid empty entry for mirror configuration`, Subject{KindICSP, 0, "spec.repositoryDigestMirrors[0].mirrors[0]"}},
		{"4.14 conflict wording", Input{Version: Version{Minor: 14, Patch: -1},
			IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "q.io/a", policy: configv1.NeverContactSource}, ent{src: "q.io/a", policy: configv1.AllowContactingSource})}},
			PrefixRegistries + `: conflicting mirrorSourcePolicy is set for the same source "q.io/a" in imagedigestmirrorsets and/or imagetagmirrorsets`,
			Subject{KindIDMS, 0, "spec.imageDigestMirrors[1].mirrorSourcePolicy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Render(tc.in)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("want refusal, got %v", err)
			}
			if r.Error() != tc.want {
				t.Fatalf("got  %q\nwant %q", r.Error(), tc.want)
			}
			if r.Subject != tc.sub {
				t.Fatalf("subject %+v, want %+v", r.Subject, tc.sub)
			}
		})
	}
}

// TestICSPMixRefusalOrder: 4.13.0–4.13.26 refused the ICSP mix inside the
// registries.conf edit, so an unparseable release image and the
// registries.conf validation win over it, and the message carries the
// registries.conf prefix. Confirmed against the release-4.13 MCO code as it
// was before the fix (runtime-utils RejectMultiUpdateMirrorSetObjs).
func TestICSPMixRefusalOrder(t *testing.T) {
	mix := func() Input {
		return Input{Version: Version{Minor: 13, Patch: 20}, ReleaseImage: testRelease,
			ICSPs: []*operatorv1alpha1.ImageContentSourcePolicy{icsp("a", ent{src: "q.io/a", mirrors: []string{"m.io/a"}})},
			IDMSs: []*configv1.ImageDigestMirrorSet{idms("b", ent{src: "r.io/b", mirrors: []string{"m.io/b"}})},
		}
	}
	badRelease := mix()
	badRelease.ReleaseImage = "quay.io/Ocp"
	badMirror := mix()
	badMirror.IDMSs[0].Spec.ImageDigestMirrors[0].Mirrors = []configv1.ImageMirror{"*.m.io"}
	badInsecure := mix()
	badInsecure.Image = &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{InsecureRegistries: []string{"*.a*.com"}}}
	for _, tc := range []struct {
		name string
		in   Input
		want string
	}{
		{"mix", mix(), PrefixRegistries + ": error: both imagecontentsourcepolicy and imagedigestmirrorset exist"},
		{"bad release image", badRelease, ReasonReleaseImage},
		{"bad mirror", badMirror, PrefixRegistries + `: wildcard entries are not supported with mirror configuration "*.m.io"`},
		{"bad insecure", badInsecure, PrefixRegistries + `: invalid entry for insecure registries "*.a*.com"`},
	} {
		_, err := Render(tc.in)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// TestICSPMixSkipsNilObjects: nil objects in Input are skipped, as flatten
// does; the 4.13 mix refusal names the first object that exists.
func TestICSPMixSkipsNilObjects(t *testing.T) {
	in := Input{Version: Version{Minor: 13, Patch: 20},
		ICSPs: []*operatorv1alpha1.ImageContentSourcePolicy{icsp("a", ent{src: "q.io/a", mirrors: []string{"m.io/a"}})},
		IDMSs: []*configv1.ImageDigestMirrorSet{nil, idms("b", ent{src: "r.io/b", mirrors: []string{"m.io/b"}})},
		ITMSs: []*configv1.ImageTagMirrorSet{nil, itms("c", ent{src: "s.io/c", mirrors: []string{"m.io/c"}})},
	}
	_, err := Render(in)
	var r *Refusal
	if !errors.As(err, &r) || r.Subject != (Subject{KindIDMS, 1, "metadata.name"}) {
		t.Fatalf("got %v (%+v), want the mix refusal on the IDMS at index 1", err, r)
	}
	in.IDMSs = []*configv1.ImageDigestMirrorSet{nil}
	if _, err := Render(in); !errors.As(err, &r) || r.Subject != (Subject{KindITMS, 1, "metadata.name"}) {
		t.Fatalf("got %v (%+v), want the mix refusal on the ITMS at index 1", err, r)
	}
}

func TestICSPMixFixedVersions(t *testing.T) {
	in := Input{
		ICSPs: []*operatorv1alpha1.ImageContentSourcePolicy{icsp("a", ent{src: "q.io/a", mirrors: []string{"m.io/a"}})},
		IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "q.io/a", mirrors: []string{"n.io/a"}})},
	}
	for _, v := range []Version{{13, 27}, {14, -1}, {19, -1}} {
		in.Version = v
		out := mustRender(t, in)
		// IDMS first, then ICSP: two unrelated lists, sorted alphabetically.
		if got := strings.Join(locations(entry(t, out, "q.io/a")), " "); got != "m.io/a(digest-only) n.io/a(digest-only)" {
			t.Fatalf("%v: %s", v, got)
		}
	}
}

func TestPayloadRule(t *testing.T) {
	blockQuay := &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{BlockedRegistries: []string{"quay.io", "ghcr.io"}}}
	// No mirror: quay.io dropped, ghcr.io kept, message logged.
	out := mustRender(t, Input{ReleaseImage: testRelease, Image: blockQuay})
	if len(decodedConf(t, out).Registries) != 1 || decodedConf(t, out).Registries[0].Location != "ghcr.io" {
		t.Fatalf("registries: %s", out.RegistriesConf)
	}
	if len(out.Warnings) != 1 || out.Warnings[0].Message != `error adding ["quay.io"] to blocked registries, cannot block the repository being used by the payload` ||
		out.Warnings[0].Subject != (Subject{KindImage, 0, "spec.registrySources.blockedRegistries[0]"}) {
		t.Fatalf("warnings: %+v", out.Warnings)
	}
	// With an unblocked digest mirror, quay.io stays blocked.
	mirrored := Input{ReleaseImage: testRelease, Image: blockQuay, ICSPs: []*operatorv1alpha1.ImageContentSourcePolicy{
		icsp("r", ent{src: "quay.io/openshift-release-dev/ocp-release", mirrors: []string{"m.io/ocp/release"}})}}
	out = mustRender(t, mirrored)
	if !entry(t, out, "quay.io").Blocked || len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0].Message, "matches the payload repository") {
		t.Fatalf("warnings %+v\n%s", out.Warnings, out.RegistriesConf)
	}
	// Unknown release image: no payload rule at all.
	out = mustRender(t, Input{Image: blockQuay})
	if len(out.Warnings) != 0 || !entry(t, out, "quay.io").Blocked {
		t.Fatalf("unknown release: %+v", out.Warnings)
	}
	// The payload check's own machinery fails (a wildcard source with a
	// nested blocked scope): MCO logs and drops blocked and allowed lists.
	broken := Input{ReleaseImage: testRelease,
		IDMSs: []*configv1.ImageDigestMirrorSet{idms("w", ent{src: "*.example.com", mirrors: []string{"m.io/w"}})},
		Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
			BlockedRegistries: []string{"quay.io", "a.example.com"},
			AllowedRegistries: []string{"*.bad:1"},
		}}}
	out = mustRender(t, broken)
	if len(decodedConf(t, out).Registries) != 1 || decodedConf(t, out).Registries[0].Prefix != "*.example.com" {
		t.Fatalf("lists should be dropped:\n%s", out.RegistriesConf)
	}
	if len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0].Message, "mirrorsAdjustedForNestedScope") {
		t.Fatalf("warnings: %+v", out.Warnings)
	}
}

// TestPayloadMirrorTrailingSlash: containers/image trims a trailing slash
// from mirror locations only since v5.35 (MCO 4.20+). Up to 4.19 the
// payload check rewrites the payload reference through "m.io/ocp/" as
// written, fails, and MCO drops the blocked list. The expected results were
// confirmed against the release-4.15 and release-4.18 branch HEADs of the
// MCO code and against the newest MCO.
func TestPayloadMirrorTrailingSlash(t *testing.T) {
	in := Input{ReleaseImage: testRelease,
		IDMSs: []*configv1.ImageDigestMirrorSet{idms("a", ent{src: "quay.io/openshift-release-dev/ocp-release", mirrors: []string{"m.io/ocp/"}})},
		Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{BlockedRegistries: []string{"quay.io"}}}}

	// 4.15 accepts the mirror; the blocked list is gone, no policy.json.
	in.Version = Version{Minor: 15, Patch: -1}
	out := mustRender(t, in)
	const want415 = `unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]
short-name-mode = ""

[[registry]]
  prefix = ""
  location = "quay.io/openshift-release-dev/ocp-release"

  [[registry.mirror]]
    location = "m.io/ocp/"
    pull-from-mirror = "digest-only"
`
	if string(out.RegistriesConf) != want415 || out.PolicyJSON != nil {
		t.Fatalf("4.15 registries.conf:\n%s\npolicy.json: %s", out.RegistriesConf, out.PolicyJSON)
	}
	if len(out.Warnings) != 1 || out.Warnings[0].Message != "rewriting reference: invalid reference format" {
		t.Fatalf("4.15 warnings: %+v", out.Warnings)
	}

	// 4.16+ refuses the mirror; which refusal comes first shows whether the
	// blocked list survived the payload check: 4.18 never validates it,
	// the newest does.
	in.Image.RegistrySources.BlockedRegistries = []string{"quay.io", "*.a*.com"}
	for _, tc := range []struct {
		v    Version
		want string
	}{
		{Version{Minor: 18, Patch: -1}, PrefixRegistries + `: invalid format for mirror "m.io/ocp/"`},
		{Version{Minor: 19, Patch: -1}, PrefixRegistries + `: invalid format for mirror "m.io/ocp/"`},
		{Newest, PrefixRegistries + `: invalid entry for blocked registries "*.a*.com"`},
	} {
		in.Version = tc.v
		_, err := Render(in)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v: got %v, want %s", tc.v, err, tc.want)
		}
	}
}

func TestSearchDropIn(t *testing.T) {
	out := mustRender(t, Input{Version: Version{Minor: 16, Patch: -1}, Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{ContainerRuntimeSearchRegistries: []string{"quay.io"}}}})
	if out.Generated {
		t.Fatal("search registries alone do not touch registries.conf")
	}
	if got := string(out.SearchRegistriesConf); got != "unqualified-search-registries = [\"quay.io\"]\nshort-name-mode = \"\"\n" {
		t.Fatalf("drop-in %q", got)
	}
	out = mustRender(t, Input{Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{ContainerRuntimeSearchRegistries: []string{}}}})
	if got := string(out.SearchRegistriesConf); got != "unqualified-search-registries = []\nshort-name-mode = \"\"\nadditional-layer-store-auth-helper = \"\"\n" {
		t.Fatalf("empty drop-in %q", got)
	}
}

// decodedConf is out's registries.conf decoded as the daemon does.
func decodedConf(t testing.TB, out *Output) sysregistriesv2.V2RegistriesConf {
	t.Helper()
	conf, err := nodefiles.Decode(out.RegistriesConf)
	if err != nil {
		t.Fatalf("rendered registries.conf does not decode: %v", err)
	}
	return conf
}
