package project

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The registry CAs of Image/cluster spec.additionalTrustedCA are written
// as the daemon writes them, every ".." of a key read as ":", and a stale
// one is removed on the next run.
func TestRegistryCAFiles(t *testing.T) {
	for _, tc := range []struct{ version string }{{"4.14"}, {"4.21"}} {
		p, err := Open(Options{Paths: []string{"testdata/registry-cas"}, ConfigPath: "none", OpenShiftVersion: tc.version})
		if err != nil {
			t.Fatal(err)
		}
		r := Render(p.Clusters[0])
		if r.Refusal != nil {
			t.Fatal(r.Refusal)
		}
		dir := t.TempDir()
		stale := filepath.Join(dir, "docker", "certs.d", "old.example.com")
		if err := os.MkdirAll(stale, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(stale, "ca.crt"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := WriteNodeFiles(dir, r.Output); err != nil {
			t.Fatal(err)
		}
		got, _ := filepath.Glob(filepath.Join(dir, "docker", "certs.d", "*", "ca.crt"))
		for i := range got {
			got[i], _ = filepath.Rel(dir, got[i])
		}
		want := []string{"docker/certs.d/mirror.example.com:5000/ca.crt", "docker/certs.d/quay.internal.example.com/ca.crt"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: files %q, want %q", tc.version, got, want)
		}
		data, _ := os.ReadFile(filepath.Join(dir, want[0]))
		if !strings.Contains(string(data), "MIIB") {
			t.Errorf("%s: ca.crt %q", tc.version, data)
		}
	}
	// Before 4.14 the daemon writes none (the image registry operator's
	// node-ca does).
	p, err := Open(Options{Paths: []string{"testdata/registry-cas"}, ConfigPath: "none", OpenShiftVersion: "4.13"})
	if err != nil {
		t.Fatal(err)
	}
	if files := Render(p.Clusters[0]).Output.RegistryCAFiles; files != nil {
		t.Errorf("4.13: %v", files)
	}
}
