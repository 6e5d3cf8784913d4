package schema

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

func TestEmbeddedCRDsLoad(t *testing.T) {
	if err := LoadError(); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ImageContentSourcePolicy", "ImageDigestMirrorSet", "ImageTagMirrorSet", "Image"} {
		if Lookup(k) == nil {
			t.Errorf("no CRD for %s", k)
		}
	}
}

func TestAPIServerWording(t *testing.T) {
	obj := map[string]any{
		"apiVersion": "config.openshift.io/v1", "kind": "ImageDigestMirrorSet",
		"metadata": map[string]any{"name": "x"},
		"spec": map[string]any{"imageDigestMirrors": []any{
			map[string]any{"mirrors": []any{"m.io/x", "m.io/x"}, "sourcePolicy": "NeverContactSource", "mirrorSourcePolicy": "Never"},
			map[string]any{"source": "quay.io/MyOrg"},
		}},
	}
	var got []string
	for _, e := range Validate("ImageDigestMirrorSet", obj) {
		got = append(got, e.Error())
	}
	want := []string{
		`strict decoding error: unknown field "spec.imageDigestMirrors[0].sourcePolicy"`,
		`spec.imageDigestMirrors[0].source: Required value`,
		`spec.imageDigestMirrors[0].mirrorSourcePolicy: Unsupported value: "Never": supported values: "NeverContactSource", "AllowContactingSource"`,
		`spec.imageDigestMirrors[0].mirrors[1]: Duplicate value: "m.io/x"`,
		`spec.imageDigestMirrors[1].source: Invalid value: "quay.io/MyOrg": spec.imageDigestMirrors[1].source in body should match '^\*(?:\.`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d errors:\n%s", len(got), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

func TestImageCELAndSearchRegistries(t *testing.T) {
	obj := map[string]any{
		"metadata": map[string]any{"name": "cluster"},
		"spec": map[string]any{"registrySources": map[string]any{
			"allowedRegistries": []any{}, "blockedRegistries": []any{"a.io"},
			"containerRuntimeSearchRegistries": []any{},
		}},
	}
	var got []string
	for _, e := range Validate("Image", obj) {
		got = append(got, e.Error())
	}
	want := []string{
		`spec.registrySources.containerRuntimeSearchRegistries: Invalid value: 0: spec.registrySources.containerRuntimeSearchRegistries in body should have at least 1 items`,
		`spec.registrySources: Invalid value: "object": Only one of blockedRegistries or allowedRegistries may be set`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !InPreview("Image", []any{"spec", "imageStreamImportMode"}) || InPreview("Image", []any{"spec", "nope"}) {
		t.Error("InPreview")
	}
}

// knownKeywords are the schema keywords Validate implements or may ignore
// safely (documentation, and format on arrays, which the API server does not
// check). A new keyword in an openshift/api bump fails this test instead of
// being skipped silently.
var knownKeywords = map[string]bool{
	"type": true, "format": true, "properties": true, "items": true, "required": true, "enum": true,
	"pattern": true, "maxLength": true, "minLength": true, "minItems": true, "maxItems": true,
	"nullable": true, "x-kubernetes-list-type": true, "x-kubernetes-preserve-unknown-fields": true,
	"x-kubernetes-validations": true, "description": true, "minimum": true, "x-kubernetes-list-map-keys": true,
	"additionalProperties": true,
	// A default fills an absent field with a value the schema accepts, and
	// a map type only tells server-side apply how to merge: neither ever
	// refuses an object.
	"default": true, "x-kubernetes-map-type": true,
}

func TestNoUnknownSchemaKeywords(t *testing.T) {
	entries, _ := crdFiles.ReadDir("crds")
	for _, e := range entries {
		data, _ := crdFiles.ReadFile("crds/" + e.Name())
		var doc struct {
			Spec struct {
				Versions []struct {
					Schema struct {
						OpenAPIV3Schema map[string]any `yaml:"openAPIV3Schema"`
					} `yaml:"schema"`
				} `yaml:"versions"`
			} `yaml:"spec"`
		}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		var walk func(s map[string]any, at string)
		walk = func(s map[string]any, at string) {
			for k, v := range s {
				if !knownKeywords[k] {
					t.Errorf("%s: %s: schema keyword %q is not implemented by package schema", e.Name(), at, k)
				}
				switch k {
				case "properties":
					for name, p := range v.(map[string]any) {
						walk(p.(map[string]any), at+"."+name)
					}
				case "items":
					walk(v.(map[string]any), at+"[]")
				case "additionalProperties":
					walk(v.(map[string]any), at+".*")
				}
			}
		}
		for _, v := range doc.Spec.Versions {
			walk(v.Schema.OpenAPIV3Schema, "")
		}
	}
}

// TestEmbeddedCRDsMatchModule fails when the embedded copies drift from the
// openshift/api version in go.mod: run `go generate ./internal/schema/`.
func TestEmbeddedCRDsMatchModule(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/openshift/api").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Skipf("module directory not available: %v", err)
	}
	entries, _ := crdFiles.ReadDir("crds")
	for _, e := range entries {
		data, _ := crdFiles.ReadFile("crds/" + e.Name())
		lines := strings.SplitN(string(data), "\n", 3)
		src := strings.TrimPrefix(lines[1], "# Source: ")
		_, rel, ok := strings.Cut(src, "/"+"config/")
		if !ok {
			_, rel, _ = strings.Cut(src, "/"+"operator/")
			rel = "operator/" + rel
		} else {
			rel = "config/" + rel
		}
		want, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if lines[2] != string(want) {
			t.Errorf("%s differs from %s: run go generate ./internal/schema/", e.Name(), rel)
		}
	}
}

// TestSignaturePolicyRules checks the CEL rules of the signature policy
// CRDs with the API server's wording, and the PKI root of trust behind the
// TechPreviewNoUpgrade schema.
func TestSignaturePolicyRules(t *testing.T) {
	key := testtree.PublicKeyData
	obj := map[string]any{
		"metadata": map[string]any{"name": "x"},
		"spec": map[string]any{
			"scopes": []any{"quay.io/acme", "registry", "quay.io/*/x", "quay.io/Acme", "*.example.com", "quay.io/acme"},
			"policy": map[string]any{
				"rootOfTrust":    map[string]any{"policyType": "PublicKey", "publicKey": map[string]any{"keyData": key, "rekorKeyData": "bm90IGEga2V5"}},
				"signedIdentity": map[string]any{"matchPolicy": "RemapIdentity", "exactRepository": map[string]any{"repository": "quay.io/a:v1"}},
			},
		},
	}
	var got []string
	for _, e := range ValidateCRD(LookupVersion("ClusterImagePolicy", "config.openshift.io/v1", false), obj) {
		got = append(got, e.Error())
	}
	want := []string{
		`spec.policy.rootOfTrust.publicKey.rekorKeyData: Invalid value: "string": the rekorKeyData must start with base64 encoding of '-----BEGIN PUBLIC KEY-----'.`,
		`spec.policy.rootOfTrust.publicKey.rekorKeyData: Invalid value: "string": the rekorKeyData must end with base64 encoding of '-----END PUBLIC KEY-----'.`,
		`spec.policy.signedIdentity.exactRepository.repository: Invalid value: "string": invalid repository or prefix in the signedIdentity, should not include the tag or digest`,
		`spec.policy.signedIdentity.exactRepository.repository: Invalid value: "string": invalid repository or prefix in the signedIdentity. The repository or prefix must starts with 'localhost' or a valid '.' separated domain. If contains registry paths, the path component names must start with at least one letter or number, with following parts able to be separated by one period, one or two underscore and multiple dashes.`,
		`spec.policy.signedIdentity: Invalid value: "object": exactRepository is required when matchPolicy is ExactRepository, and forbidden otherwise`,
		`spec.policy.signedIdentity: Invalid value: "object": remapIdentity is required when matchPolicy is RemapIdentity, and forbidden otherwise`,
		`spec.scopes[1]: Invalid value: "string": invalid image scope format, scope must contain a fully qualified domain name or 'localhost'`,
		`spec.scopes[1]: Invalid value: "string": invalid repository namespace or image specification in the image scope`,
		`spec.scopes[2]: Invalid value: "string": invalid image scope with wildcard, a wildcard can only be at the start of the domain and is only supported for subdomain matching, not path matching`,
		`spec.scopes[3]: Invalid value: "string": invalid repository namespace or image specification in the image scope`,
		`spec.scopes[5]: Duplicate value: "quay.io/acme"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	pki := map[string]any{
		"metadata": map[string]any{"name": "x"},
		"spec": map[string]any{"scopes": []any{"quay.io/acme"}, "policy": map[string]any{
			"rootOfTrust": map[string]any{"policyType": "PKI", "pki": map[string]any{
				"caRootsData":           "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJrVENDQVRlZ0F3SUJBZ0lVQUFBQUFBQUFBQUFBQUFBQQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==",
				"pkiCertificateSubject": map[string]any{"hostname": "*.Example.com"},
			}},
		}},
	}
	got = nil
	for _, e := range ValidateCRD(LookupVersion("ClusterImagePolicy", "config.openshift.io/v1", true), pki) {
		got = append(got, e.Error())
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], `spec.policy.rootOfTrust.pki.pkiCertificateSubject.hostname: Invalid value: "string": hostname must be a valid dns 1123 subdomain`) {
		t.Errorf("PKI under TechPreviewNoUpgrade:\n%s", strings.Join(got, "\n"))
	}
	got = nil
	for _, e := range ValidateCRD(LookupVersion("ClusterImagePolicy", "config.openshift.io/v1", false), pki) {
		got = append(got, e.Error())
	}
	// The Default schema has no enum on policyType: the pki block is an
	// unknown field (pruned unless strict), the type itself passes.
	if strings.Join(got, "\n") != `strict decoding error: unknown field "spec.policy.rootOfTrust.pki"` {
		t.Errorf("PKI in the Default schema:\n%s", strings.Join(got, "\n"))
	}
	if c := LookupVersion("ImagePolicy", "config.openshift.io/v1alpha1", true); c == nil || c.Version != "v1alpha1" {
		t.Errorf("no v1alpha1 ImagePolicy schema: %+v", c)
	}
	if LookupVersion("ImagePolicy", "config.openshift.io/v2", false) != nil {
		t.Error("a schema for an unknown version")
	}
}
