package resolve

import (
	"reflect"
	"testing"
)

// policy.json is looked up as containers/image does: the most specific
// docker scope wins, then the transport's "" scope, then the default.
func TestPolicyRejects(t *testing.T) {
	conf := []byte("unqualified-search-registries = [\"registry.access.redhat.com\", \"docker.io\"]\n")
	allowed := []byte(`{"default":[{"type":"reject"}],"transports":{"docker":{
		"registry.redhat.io":[{"type":"insecureAcceptAnything"}],
		"*.corp.example.com":[{"type":"insecureAcceptAnything"}],
		"quay.io/acme":[{"type":"insecureAcceptAnything"}],
		"quay.io/acme/secret":[{"type":"reject"}]}}}`)
	c, err := Load(conf, nil, allowed)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for image, want := range map[string]string{
		"registry.redhat.io/ubi9/ubi:9.4":                 "",
		"mirror.corp.example.com:5000/tools/debug":        "",
		"quay.io/acme/app@sha256:" + sixtyFourZeros:       "",
		"quay.io/acme/secret/app:v1":                      "quay.io/acme/secret",
		"quay.io/other/app:v1":                            "(default)",
		"nginx":                                           "(default)", // docker.io/library/nginx
		"corp.example.com/tools/debug":                    "(default)", // *.corp.example.com is a subdomain scope
		"registry.redhat.io.evil.example/ubi9/ubi:latest": "(default)",
	} {
		scope, rejects := c.PolicyRejects(image)
		got := ""
		if rejects {
			got = scope
			if scope == "" {
				got = "(default)"
			}
		}
		if got != want {
			t.Errorf("%s: rejected by %q, want %q", image, got, want)
		}
	}
	none, err := Load(conf, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer none.Close()
	if _, rejects := none.PolicyRejects("quay.io/other/app:v1"); rejects {
		t.Error("without a policy.json the template admits everything")
	}
}

const sixtyFourZeros = "0000000000000000000000000000000000000000000000000000000000000000"

// The forms taking a parsed reference answer what the string forms answer
// for that reference: what image-pull-fails asks, parsing each image once.
func TestNamedFormsAnswerAsTheStringForms(t *testing.T) {
	// The package's registries.conf (resolve_test.go), and a policy that
	// rejects one repository.
	policy := []byte(`{"default":[{"type":"insecureAcceptAnything"}],"transports":{"docker":{"registry.redhat.io/secret":[{"type":"reject"}]}}}`)
	c, err := Load([]byte(conf), nil, policy)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, image := range []string{
		"quay.io/openshift-release-dev/ocp-release:4.16.3", "quay.io/openshift-release-dev/ocp-release@" + dgst,
		"registry.redhat.io/ubi9/ubi:9.4", "registry.redhat.io/ubi9/ubi:9.4@" + dgst, "registry.redhat.io/secret/app:v1",
		"a.insecure.example.org/x", "nginx", "other.example.com/a/b:c",
	} {
		named, _, err := Parse(image)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := c.Resolve(named.String())
		got, gerr := c.ResolveNamed(named)
		if (werr != nil) != (gerr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ResolveNamed gave %+v (%v), Resolve %+v (%v)", image, got, gerr, want, werr)
		}
		ws, wr := c.PolicyRejects(named.String())
		gs, gr := c.PolicyRejectsNamed(named)
		if ws != gs || wr != gr {
			t.Errorf("%s: PolicyRejectsNamed gave %q %v, PolicyRejects %q %v", image, gs, gr, ws, wr)
		}
	}
}
