package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --cluster sno1 is the site its SiteConfig names sno1, ztp-spoke/sno1, in
// every command, when no other cluster's name ends in sno1.
func TestClusterBareSiteName(t *testing.T) {
	ztpFleetCopy(t, "")
	full := mlRun(t, "", "render", "--config", "none", "--cluster", "ztp-spoke/sno1", ".")
	bare := mlRun(t, "", "render", "--config", "none", "--cluster", "sno1", ".")
	if full.code != exitOK || bare.code != exitOK || bare.stdout != full.stdout || !strings.Contains(bare.stdout, "mirror-a.example.com:5000") {
		t.Errorf("render --cluster sno1: exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 0 and ztp-spoke/sno1's file:\n%s", bare.code, bare.stdout, bare.stderr, full.stdout)
	}
	r := mlRun(t, "", "lint", "--config", "none", "--cluster", "sno1", ".")
	if r.code != exitOK || !strings.Contains(r.stdout, "[cluster ztp-spoke/sno1]") || strings.Contains(r.stdout, "sno2") {
		t.Errorf("lint --cluster sno1: exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if l := fleetClusters(t, "--cluster", "sno1", "."); len(l.Clusters) != 1 || l.Clusters[0].Name != "ztp-spoke/sno1" {
		t.Errorf("clusters --cluster sno1: %+v", l.Clusters)
	}
	r = mlRun(t, "", "resolve", "--config", "none", "--cluster", "sno1", "registry.redhat.io/ubi9/ubi@sha256:"+strings.Repeat("a", 64), ".")
	if r.code != exitOK || !strings.Contains(r.stdout, "mirror-a.example.com:5000") {
		t.Errorf("resolve --cluster sno1: exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	// diff selects the new side's cluster by the bare name, and the old
	// side's by the full name it resolves to.
	r = mlRun(t, "", "diff", "--config", "none", "--format", "json", "--cluster", "sno1", ".", ".")
	var res struct {
		Clusters []struct{ Name, Action string } `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitOK {
		t.Fatalf("diff --cluster sno1: exit %d, %v\n%s\nstderr:\n%s", r.code, err, r.stdout, r.stderr)
	}
	if len(res.Clusters) != 1 || res.Clusters[0].Name != "ztp-spoke/sno1" || res.Clusters[0].Action != "none" {
		t.Errorf("diff --cluster sno1 compared %+v, want ztp-spoke/sno1 alone, unchanged", res.Clusters)
	}
}

// A bare name that ends two clusters' names selects neither: the error
// lists both, as a mistyped name gets the nearest ones.
func TestClusterBareNameAmbiguous(t *testing.T) {
	ztpFleetCopy(t, "")
	idms := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: apps\nspec:\n  imageDigestMirrors:\n  - source: registry.example.com/apps\n    mirrors:\n    - mirror.example.com/apps\n"
	if err := os.MkdirAll(filepath.Join("clusters", "sno1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("clusters", "sno1", "idms.yaml"), []byte(idms), 0o644); err != nil {
		t.Fatal(err)
	}
	want := `no cluster named "sno1"; did you mean clusters/sno1, ztp-spoke/sno1? (2 clusters end in "sno1": name one in full`
	for _, cmd := range []string{"render", "lint"} {
		r := mlRun(t, "", cmd, "--config", "none", "--cluster", "sno1", ".")
		if r.code != exitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("%s --cluster sno1: exit %d, stderr:\n%s\nwant exit 2 and %q", cmd, r.code, r.stderr, want)
		}
	}
	// In full, each is still selected.
	if r := mlRun(t, "", "render", "--config", "none", "--cluster", "clusters/sno1", "."); r.code != exitOK || !strings.Contains(r.stdout, "mirror.example.com/apps") {
		t.Errorf("render --cluster clusters/sno1: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r := mlRun(t, "", "render", "--config", "none", "--cluster", "sno3", ".")
	if r.code != exitUsage || !strings.Contains(r.stderr, `no cluster named "sno3"; did you mean `) || !strings.Contains(r.stderr, "ztp-spoke/sno1") {
		t.Errorf("render --cluster sno3: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}
