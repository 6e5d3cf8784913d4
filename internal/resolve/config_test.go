package resolve

import "testing"

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
