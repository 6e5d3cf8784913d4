package resolve

import (
	"reflect"
	"testing"
)

// Config answers without containers/image when no registries.conf entry
// can match; the answers must be the library's own. Each image is resolved
// twice: normally, and with the shortcut disabled (scopes nil makes every
// name a candidate, so every question goes to containers/image).
func TestShortcutAgreesWithTheLibrary(t *testing.T) {
	images := []string{
		"quay.io/openshift-release-dev/ocp-release:4.16.0",
		"quay.io/openshift-release-dev/ocp-release@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"quay.io/other/app:v1",
		"registry.redhat.io/ubi9/ubi:latest",
		"registry.redhat.io/ubi9-minimal:latest",
		"a.insecure.example.com/x:1",
		"ghcr.io/acme/tool:v2",
		"docker.io/library/nginx:1",
		"mirror.example.com/ocp/app:1",
		"evil.example.org/mirror.example.com/x:1",
	}
	fast, err := Load([]byte(conf), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer fast.Close()
	full, err := Load([]byte(conf), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	full.scopes = nil
	shortcuts := 0
	for _, img := range images {
		a, errA := fast.Resolve(img)
		b, errB := full.Resolve(img)
		if (errA == nil) != (errB == nil) || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: shortcut %+v (%v), library %+v (%v)", img, a, errA, b, errB)
		}
		if named, _, err := Parse(img); err == nil && !fast.mayMatch(named.Name()) {
			shortcuts++
		}
	}
	if shortcuts == 0 {
		t.Fatal("no image took the shortcut: the test compares nothing")
	}
}
