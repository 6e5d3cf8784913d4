package resolve

import (
	"reflect"
	"strings"
	"testing"

	"github.com/containers/image/v5/pkg/sysregistriesv2"
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

// An image no entry matches is answered without asking containers/image
// to rewrite it; the answer must be what the library gives for the
// default entry it would use (the reference as named, one primary source,
// not blocked because no entry matches the rewritten name either).
func TestUnmatchedImageAgreesWithTheLibrary(t *testing.T) {
	c, err := Load([]byte(conf), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, img := range []string{
		"ghcr.io/acme/tool:v2",
		"localhost:5000/x/y@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"quay.io/other/app:v1@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	} {
		named, _, err := Parse(img)
		if err != nil {
			t.Fatal(err)
		}
		if reg, err := c.findRegistry(named.Name()); err != nil || reg != nil {
			t.Fatalf("%s: an entry matches (%v, %v); the case tests nothing", img, reg, err)
		}
		got, err := c.Resolve(img)
		if err != nil {
			t.Fatal(err)
		}
		def := &sysregistriesv2.Registry{Prefix: named.Name(), Endpoint: sysregistriesv2.Endpoint{Location: named.Name()}}
		tried, err := def.PullSourcesFromReference(named)
		if err != nil || len(tried) != 1 {
			t.Fatalf("%s: library sources %v, %v", img, tried, err)
		}
		blocking, err := c.findRegistry(referenceName(tried[0].Reference.String()))
		if err != nil {
			t.Fatal(err)
		}
		want := []Source{{Order: 1, Kind: "primary", Location: tried[0].Endpoint.Location, Reference: tried[0].Reference.String(), Insecure: tried[0].Endpoint.Insecure, Blocked: blocking != nil && blocking.Blocked}}
		if !reflect.DeepEqual(got.Sources, want) || got.Fails {
			t.Errorf("%s: got %+v (fails %v), library %+v", img, got.Sources, got.Fails, want)
		}
	}
}

// mayMatch's index must answer as the scan of every scope did: true
// exactly when a scope is a text prefix of the name, or a wildcard
// scope's domain occurs in it.
func TestMayMatchIndex(t *testing.T) {
	c := &Config{scopes: []string{"quay.io/org-1/re", "*.example.com", "registry.local:5000", "a"}}
	c.index()
	scan := func(name string) bool {
		for _, s := range c.scopes {
			if after, ok := strings.CutPrefix(s, "*"); ok {
				if strings.Contains(name, after) {
					return true
				}
			} else if strings.HasPrefix(name, s) {
				return true
			}
		}
		return false
	}
	for _, name := range []string{"quay.io/org-1/repo", "quay.io/org-1/r", "quay.io/org-2/repo", "mirror.example.com/x", "example.com/x",
		"registry.local:5000/x", "registry.local/x", "a", "ab/c", "", "b"} {
		if got, want := c.mayMatch(name), scan(name); got != want {
			t.Errorf("mayMatch(%q) = %v, the scan says %v", name, got, want)
		}
	}
}
