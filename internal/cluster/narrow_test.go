package cluster

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// Narrowed needs (manifest.Options.Narrowed) apply only to the plain files
// of clusters made of plain files alone: a cluster that also builds a
// kustomization keeps every workload of its plain files, since its patches
// may move findings. A file one load read narrowed is read again whole
// when a later load's cluster needs it so.
func TestNarrowedOnlyInPlainClusters(t *testing.T) {
	t.Parallel()
	root := testtree.Write(t, map[string]string{
		"k/base/kustomization.yaml":    "resources: [idms.yaml]\n",
		"k/base/idms.yaml":             benchrepo.Mirror(1),
		"k/overlay/kustomization.yaml": "resources: [../base, deploy.yaml]\n",
		"k/overlay/deploy.yaml":        benchrepo.Deployment(2),
		"shared/deploy.yaml":           benchrepo.Deployment(3),
		"shared/idms.yaml":             benchrepo.Mirror(4),
	})
	cfg := &config.Config{Path: filepath.Join(root, ".mirrorlint.yaml"), Clusters: []config.Cluster{
		{Name: "plain", Paths: []string{"shared"}},
		{Name: "mixed", Paths: []string{"k/overlay", "shared"}},
	}}
	full := manifest.NeedKinds(append([]string{"ImageDigestMirrorSet", "ImageTagMirrorSet"}, manifest.ImageKinds()...)...)
	narrowed := full.Without(manifest.ImageKinds()...)
	find := func() *Result {
		t.Helper()
		res, err := Find(Options{Config: cfg, Root: root, Needs: &full,
			Load: manifest.Options{Unmodelled: manifest.UnmodelledImages, Prefilter: &full, Narrowed: &narrowed}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	deployments := func(res *Result, name string) string {
		var out []string
		for _, o := range byName(t, res, name).Objects {
			if o.Kind == "Deployment" {
				out = append(out, strings.TrimPrefix(o.File, root+"/"))
			}
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	const want = "k/overlay/deploy.yaml shared/deploy.yaml"
	// One load of both: the file they share is read whole.
	res := find()
	res.Load(res.Clusters, LoadOptions{Build: true})
	if got := deployments(res, "mixed"); got != want {
		t.Errorf("loaded together, the cluster that builds holds the Deployments of %q, want %q", got, want)
	}
	// The plain cluster first, alone: read narrowed; then the other.
	res = find()
	res.Load([]*Cluster{byName(t, res, "plain")}, LoadOptions{Build: true})
	if got := deployments(res, "plain"); got != "" {
		t.Errorf("the plain cluster read narrowed holds the Deployments of %q", got)
	}
	res.Load([]*Cluster{byName(t, res, "mixed")}, LoadOptions{Build: true})
	if got := deployments(res, "mixed"); got != want {
		t.Errorf("loaded after it, the cluster that builds holds the Deployments of %q, want %q", got, want)
	}
}
