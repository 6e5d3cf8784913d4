package schema

import (
	"strings"
	"testing"
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
