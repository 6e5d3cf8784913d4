package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const neverContactIDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: disconnected
spec:
  imageDigestMirrors:
  - source: quay.io/acme
    mirrors:
    - mirror.example.com/acme
    mirrorSourcePolicy: NeverContactSource
`

const appDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  template:
    spec:
      containers:
      - name: app
        image: quay.io/acme/app@sha256:0123456789012345678901234567890123456789012345678901234567890123
`

// In a kustomize cluster the image a workload pulls is the built one (an
// overlay's images: transformer turns the digest into a tag here), and the
// finding sits on the image line of the base that wrote it.
func TestImagePullFailsOnBuiltImages(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"base/kustomization.yaml":          "resources:\n- deploy.yaml\n",
		"base/deploy.yaml":                 appDeployment,
		"overlays/prod/kustomization.yaml": "resources:\n- ../../base\n- idms.yaml\nimages:\n- name: quay.io/acme/app\n  newTag: v2\n",
		"overlays/prod/idms.yaml":          neverContactIDMS,
		"overlays/dev/kustomization.yaml":  "resources:\n- ../../base\n- idms.yaml\n",
		"overlays/dev/idms.yaml":           neverContactIDMS,
	})
	fs := only(lintTree(t, nil, dir), "image-pull-fails")
	got := shapes(fs, dir)
	if want := []string{"error image-pull-fails base/deploy.yaml:10:16"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if f := fs[0]; !strings.Contains(f.Message, "quay.io/acme/app:v2") || strings.Join(f.Clusters, ",") != "overlays/prod" {
		t.Errorf("message %q, clusters %v", f.Message, f.Clusters)
	}
	// Off in the config: the workloads are not even kept.
	cfg := &config.Config{Rules: map[string]string{"image-pull-fails": "off"}}
	if fs := only(lintTree(t, cfg, dir), "image-pull-fails"); len(fs) != 0 {
		t.Errorf("off: %v", fs)
	}
}

// A plain directory: the workload joins the cluster of its directory, and
// a suppression annotation on it applies.
func TestImagePullFailsPlainAndSuppressed(t *testing.T) {
	t.Parallel()
	tagged := strings.Replace(appDeployment, "@sha256:0123456789012345678901234567890123456789012345678901234567890123", ":v1", 1)
	dir := testtree.Write(t, map[string]string{
		"cluster/idms.yaml":        neverContactIDMS,
		"cluster/apps/deploy.yaml": tagged,
		"cluster/apps/muted.yaml":  strings.Replace(strings.Replace(tagged, "name: app\nspec", "name: muted\n  annotations:\n    mirrorlint.io/ignore: \"image-pull-fails: pulled through the proxy\"\nspec", 1), "name: app\n        image", "name: muted\n        image", 1),
	})
	fs := only(lintTree(t, nil, dir), "image-pull-fails")
	var open, muted []check.Finding
	for _, f := range fs {
		if f.Suppressed != nil {
			muted = append(muted, f)
		} else {
			open = append(open, f)
		}
	}
	if want := []string{"error image-pull-fails cluster/apps/deploy.yaml:10:16"}; !slices.Equal(shapes(open, dir), want) {
		t.Errorf("open %v, want %v", open, want)
	}
	if want := []string{"error image-pull-fails cluster/apps/muted.yaml:12:16"}; !slices.Equal(shapes(muted, dir), want) {
		t.Errorf("suppressed %v, want %v", muted, want)
	}
}

// A stream (kustomize build output with origin annotations, read from
// stdin): the finding goes back to the image line of the file the object
// came from.
func TestImagePullFailsOnAStream(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{"base/deploy.yaml": strings.Replace(appDeployment, "@sha256:0123456789012345678901234567890123456789012345678901234567890123", ":v1", 1)})
	stream := neverContactIDMS + "---\n" + strings.Replace(strings.Replace(appDeployment, "@sha256:0123456789012345678901234567890123456789012345678901234567890123", ":v1", 1),
		"  name: app\n", "  name: app\n  annotations:\n    config.kubernetes.io/origin: |\n      path: base/deploy.yaml\n", 1)
	checks, err := LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), checks, Request{Options: project.Options{Stream: strings.NewReader(stream), Config: &config.Config{}}, OriginRoots: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := shapes(only(res.Findings, "image-pull-fails"), dir), []string{"error image-pull-fails base/deploy.yaml:10:16"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
