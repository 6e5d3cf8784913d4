package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDrainOnChangeSitsOnThePatch: the prod overlay's patch switches the
// release source from NeverContactSource to AllowContactingSource. The
// drain warning sits on the patch's value (not on the base's source line),
// so a pre-commit run on the patch file alone reports it too; a warning
// about a file the overlay does not list does not hide it.
func TestDrainOnChangeSitsOnThePatch(t *testing.T) {
	dir := editedGitops(t, nil)
	patch := filepath.Join(dir, "overlays/prod/never-contact-source.yaml")
	data, err := os.ReadFile(patch)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(patch, []byte(strings.Replace(string(data), "NeverContactSource", "AllowContactingSource", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "overlays/prod/never-contact-source.yaml:4:10: warning drain-on-change: nodes drain: registry quay.io/openshift-release-dev/ocp-release: blocked changed from true to false [cluster overlays/prod]"
	check := func(args ...string) {
		t.Helper()
		r := mlRun(t, "", append([]string{"lint", "--config", "none", "--base", "HEAD"}, args...)...)
		if !strings.Contains(r.stdout, want) {
			t.Errorf("%v: no\n%s\nin\n%s%s", args, want, r.stdout, r.stderr)
		}
	}
	check(".")
	check("overlays/prod/never-contact-source.yaml")
	if err := os.WriteFile(filepath.Join(dir, "overlays/prod/notes.yaml"), []byte("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check(".")
}
