package manifest

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const workloads = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  template:
    spec:
      initContainers:
      - name: init
        image: quay.io/acme/init:v1
      containers:
      - name: web
        image: quay.io/acme/web@sha256:0000000000000000000000000000000000000000000000000000000000000000
        args: [--port=8080]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  image: quay.io/acme/not-pulled:v1
---
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [a.yaml]
`

// The load keeps objects of other kinds only on request: the image-pulling
// kinds with nothing but their identity and image fields, or every object
// whole; kustomization files are never objects.
func TestUnmodelledObjects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "w.yaml"), workloads)
	if s := mustLoad(t, []string{dir}, Options{}); len(s.Objects) != 0 {
		t.Fatalf("default load kept %v", refs(s))
	}
	s := mustLoad(t, []string{dir}, Options{Unmodelled: UnmodelledImages})
	// ConfigMaps come too, whole: the mirror inputs (a hub's mirror
	// registries.conf, NodePool configs) are ConfigMaps.
	if len(s.Objects) != 2 || s.Objects[1].Ref() != "ConfigMap/settings" || s.Objects[1].Partial {
		t.Fatalf("images: %v", refs(s))
	}
	o := s.Objects[0]
	if !o.Unmodelled || !o.Partial || o.Known || o.Ref() != "Deployment/web" {
		t.Fatalf("%+v", o)
	}
	var got []string
	for _, r := range o.Images() {
		got = append(got, r.Image+" "+r.Path.String()+" "+span(o.Locate(r.Path)))
	}
	want := []string{
		"quay.io/acme/init:v1 spec.template.spec.initContainers[0].image 12:16",
		"quay.io/acme/web@sha256:0000000000000000000000000000000000000000000000000000000000000000 spec.template.spec.containers[0].image 15:16",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("images:\n%v\nwant\n%v", got, want)
	}
	if _, ok := o.Content["spec"].(map[string]any)["replicas"]; ok {
		t.Error("a partial object kept fields no rule reads")
	}
	s = mustLoad(t, []string{dir}, Options{Unmodelled: UnmodelledAll})
	if len(s.Objects) != 2 || s.Objects[0].Partial || s.Objects[1].Ref() != "ConfigMap/settings" {
		t.Fatalf("all: %v", refs(s))
	}
	if got := span(s.Objects[0].Locate(ParsePath("spec.replicas"))); got != "7:13-7:14" {
		t.Errorf("a whole object locates any field: %s", got)
	}
}
