package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// TestOnlyLooseFile: committing a manifest that lies in an overlay's
// directory but is not listed in its kustomization loads that overlay,
// which reports it (not-in-kustomization), and parses the file itself in
// full whatever it holds.
func TestOnlyLooseFile(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(gitops)); err != nil {
		t.Fatal(err)
	}
	loose := filepath.Join(root, "overlays/prod/forgotten.yaml")
	icsp, err := os.ReadFile(filepath.Join(root, "overlays/dev/icsp-legacy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(loose, icsp, 0o644); err != nil {
		t.Fatal(err)
	}
	needs := manifest.NeedKinds("ImageDigestMirrorSet")
	p, err := Open(Options{Paths: []string{root}, Root: root, ConfigPath: "none", Only: []string{manifest.RealPath(loose)}, Needs: &needs})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(p.Clusters); got != "overlays/prod" {
		t.Fatalf("clusters %q, want overlays/prod", got)
	}
	var found bool
	for _, pr := range p.Clusters[0].Problems {
		found = found || pr.Code == "not-in-kustomization" && strings.HasSuffix(pr.Pos.File, "overlays/prod/forgotten.yaml")
	}
	if !found {
		t.Errorf("no not-in-kustomization for the committed file: %v", p.Clusters[0].Problems)
	}
}
