package mco

import (
	"os"
	"path/filepath"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
)

// TestPolicyJSON checks the policy.json bytes against files produced by
// containers/image's own signature.Policy (see testdata/policyjson), and
// the emission condition: MCO writes policy.json only when a blocked or
// allowed registry is left after the payload rule.
func TestPolicyJSON(t *testing.T) {
	image := func(blocked, allowed, insecure []string) *configv1.ImageSpec {
		return &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
			BlockedRegistries: blocked, AllowedRegistries: allowed, InsecureRegistries: insecure}}
	}
	payloadMirror := []*operatorv1alpha1.ImageContentSourcePolicy{
		icsp("r", ent{src: "quay.io/openshift-release-dev/ocp-release", mirrors: []string{"m.io/ocp/release"}})}
	for _, tc := range []struct {
		name   string
		in     Input
		golden string // "" when MCO writes no policy.json
	}{
		{"blocked", Input{Image: image([]string{"a.io", "*.b.example.com", "q.io/x/y/z", "r.io:5000/one/two"}, nil, nil)}, "blocked.json"},
		{"allowed", Input{Image: image(nil, []string{"quay.io", "registry.redhat.io/ubi9/ubi/x", "*.corp.example"}, nil)}, "allowed.json"},
		// The payload rule keeps a mirrored blocked registry, blocks it in
		// policy.json and allows the payload repository.
		{"payload registry blocked", Input{ReleaseImage: testRelease, ICSPs: payloadMirror, Image: image([]string{"quay.io"}, nil, nil)}, "payload-blocked-registry.json"},
		// Blocking exactly the payload repository leaves only the allowed
		// payload repository in policy.json.
		{"payload repository blocked", Input{ReleaseImage: testRelease, ICSPs: payloadMirror, Image: image([]string{"quay.io/openshift-release-dev/ocp-release"}, nil, nil)}, "payload-blocked-repo.json"},
		{"no lists", Input{ICSPs: payloadMirror}, ""},
		{"insecure only", Input{Image: image(nil, nil, []string{"a.io"})}, ""},
		{"empty lists", Input{Image: image([]string{}, []string{}, nil)}, ""},
		// Blocking the unmirrored payload registry is dropped: nothing left.
		{"payload block dropped", Input{ReleaseImage: testRelease, Image: image([]string{"quay.io"}, nil, nil)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := mustRender(t, tc.in)
			if tc.golden == "" {
				if out.PolicyJSON != nil {
					t.Fatalf("MCO writes no policy.json here, got:\n%s", out.PolicyJSON)
				}
				return
			}
			want, err := os.ReadFile(filepath.Join("testdata", "policyjson", tc.golden))
			if err != nil {
				t.Fatal(err)
			}
			if string(out.PolicyJSON) != string(want) {
				t.Errorf("policy.json:\n%s\nwant:\n%s", out.PolicyJSON, want)
			}
		})
	}
}

// TestPolicyJSONPerVersion: the policy.json encoding changed across
// releases (4.13 puts scopes with three or more slashes under "atomic"
// too; up to 4.16 the JSON is compact). The expected bytes were confirmed
// by running the updatePolicyJSON sequence of each release branch's MCO
// code (release-4.13, -4.14, -4.16 HEAD) on this input.
func TestPolicyJSONPerVersion(t *testing.T) {
	in := Input{ReleaseImage: testRelease, Image: &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
		BlockedRegistries: []string{"a.io", "q.io/x/y/z"}}}}
	const (
		v413 = `{"default":[{"type":"insecureAcceptAnything"}],"transports":{"atomic":{"a.io":[{"type":"reject"}],"q.io/x/y/z":[{"type":"reject"}]},"docker":{"a.io":[{"type":"reject"}],"q.io/x/y/z":[{"type":"reject"}]},"docker-daemon":{"":[{"type":"insecureAcceptAnything"}]}}}`
		v414 = `{"default":[{"type":"insecureAcceptAnything"}],"transports":{"atomic":{"a.io":[{"type":"reject"}]},"docker":{"a.io":[{"type":"reject"}],"q.io/x/y/z":[{"type":"reject"}]},"docker-daemon":{"":[{"type":"insecureAcceptAnything"}]}}}`
	)
	for _, tc := range []struct {
		v    Version
		want string
	}{
		{Version{Minor: 13, Patch: 30}, v413},
		{Version{Minor: 14, Patch: -1}, v414},
		{Version{Minor: 15, Patch: -1}, v414},
		{Version{Minor: 16, Patch: -1}, v414},
	} {
		in.Version = tc.v
		if got := string(mustRender(t, in).PolicyJSON); got != tc.want {
			t.Errorf("%v policy.json:\n%s\nwant:\n%s", tc.v, got, tc.want)
		}
	}
	// 4.17 and later indent (golden file, checked against the newest MCO).
	in.Version = Version{Minor: 17, Patch: -1}
	got := mustRender(t, in).PolicyJSON
	in.Version = Version{}
	if newest := mustRender(t, in).PolicyJSON; string(got) != string(newest) || got[1] != '\n' {
		t.Errorf("4.17 policy.json differs from the newest or is not indented:\n%s", got)
	}
}
