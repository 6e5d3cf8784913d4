package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const pinnedICSP = `apiVersion: operator.openshift.io/v1alpha1
kind: ImageContentSourcePolicy
metadata:
  name: operators
spec:
  repositoryDigestMirrors:
  - mirrors:
    - registry.test:5000/ubi8/ubi
    source: registry.redhat.io/ubi8/ubi@sha256:1111111111111111111111111111111111111111111111111111111111111111
  - mirrors:
    - registry.test:5000/ubi8/ubi
    source: registry.redhat.io/ubi8/ubi@sha256:2222222222222222222222222222222222222222222222222222222222222222
`

// migrate never writes what the API server refuses: digests are removed
// (and said so), what cannot be fixed stops the run at its line; in a
// kustomize tree the default mode points at --in-place.
func TestMigrateWritesOnlyWhatTheAPIServerAccepts(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"kust/kustomization.yaml": "resources:\n- icsp.yaml\n",
		"kust/icsp.yaml":          pinnedICSP,
	})
	r := mlRun(t, "", "migrate", dir)
	if r.code != exitOK || !strings.Contains(r.stderr, "note: "+filepath.Join(dir, "kust", "icsp.yaml")+": ImageContentSourcePolicy operators: removed the tag or digest from 2 sources") ||
		!strings.Contains(r.stderr, "run migrate --in-place instead") {
		t.Fatalf("exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	out, err := os.ReadFile(filepath.Join(dir, "kust", "icsp.idms.yaml"))
	if err != nil || strings.Contains(string(out), "@sha256") || strings.Count(string(out), "source:") != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	if r := mlRun(t, "", "lint", "--config", "none", "--context", dir, filepath.Join(dir, "kust", "icsp.idms.yaml")); r.code != exitOK {
		t.Errorf("the migrated file does not lint clean: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	bad := testtree.Write(t, map[string]string{"icsp.yaml": strings.Replace(pinnedICSP, "registry.redhat.io/ubi8/ubi@sha256:2222222222222222222222222222222222222222222222222222222222222222", "registry.redhat.io/UBI8/ubi", 1)})
	r = mlRun(t, "", "migrate", "--in-place", bad)
	if r.code != exitUsage || !strings.Contains(r.stderr, filepath.Join(bad, "icsp.yaml")+":12:13: ImageContentSourcePolicy operators cannot become an ImageDigestMirrorSet the API server accepts") {
		t.Fatalf("exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(bad, "icsp.yaml")); !strings.Contains(string(data), "ImageContentSourcePolicy") {
		t.Error("the refused file was rewritten")
	}
}

func TestMigrateHelpAdvisesInPlaceForKustomize(t *testing.T) {
	t.Parallel()
	r := mlRun(t, "", "migrate", "--help")
	if !strings.Contains(r.stdout, "In a kustomize") || !strings.Contains(r.stdout, "tree use --in-place") {
		t.Errorf("help:\n%s", r.stdout)
	}
}
