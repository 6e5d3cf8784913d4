package project

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// unlistedInputsTree holds, beside a kustomization listing one of each, a
// ClusterInstance and a HostedCluster it does not list (the unlisted
// ClusterInstance with the sourcePolicy assisted-service refuses, so that
// it would create no cluster even if read); a ClusterInstance in a plain
// directory; and an install-config.yaml beside a kustomization that does
// not list it, which openshift-install reads from its directory anyway.
func unlistedInputsTree(t *testing.T) string {
	ci := func(name, entryExtra string) string {
		return testtree.ClusterInstance(name, "openshift-4.20",
			`{"imageDigestSources": [{"source": "quay.io/openshift-release-dev/ocp-release", "mirrors": ["m.example.com/ocp"]`+entryExtra+`}]}`)
	}
	hc := func(name string) string {
		return fmt.Sprintf(`apiVersion: hypershift.openshift.io/v1beta1
kind: HostedCluster
metadata:
  name: %s
  namespace: clusters
spec:
  imageContentSources:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - m.example.com/ocp
`, name)
	}
	return testtree.Write(t, map[string]string{
		"sites/kustomization.yaml":   "resources: [listed.yaml]\n",
		"sites/listed.yaml":          ci("listed", ""),
		"sites/unlisted.yaml":        ci("unlisted", `, "sourcePolicy": "NeverContactSource"`),
		"hosted/kustomization.yaml":  "resources: [listed.yaml]\n",
		"hosted/listed.yaml":         hc("hc-listed"),
		"hosted/unlisted.yaml":       hc("hc-unlisted"),
		"plain/ci.yaml":              ci("plain", ""),
		"install/kustomization.yaml": "resources: [namespace.yaml]\n",
		"install/namespace.yaml":     "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n",
		"install/install-config.yaml": `apiVersion: v1
metadata:
  name: ocp4
imageDigestSources:
- source: quay.io/openshift-release-dev/ocp-release
  mirrors: [m.example.com/ocp]
`,
	})
}

// notInKustomization lists the not-in-kustomization problems of the
// clusters, as "cluster: file", files relative to root.
func notInKustomization(cls []*cluster.Cluster, root string) []string {
	var out []string
	for _, cl := range cls {
		for _, p := range cl.Problems {
			if p.Code == manifest.CodeNotInKustomization {
				rel, _ := filepath.Rel(root, p.Pos.File)
				out = append(out, cl.Name+": "+filepath.ToSlash(rel))
			}
		}
	}
	slices.Sort(out)
	return out
}

// A ClusterInstance or a HostedCluster lying unlisted in a kustomization's
// directory creates no cluster, and the kustomization's cluster warns
// about its file once; listed ones, the plain directory's site and the
// install-config still create theirs. Whatever the load keeps of the
// input kinds.
func TestUnlistedInputsCreateNoCluster(t *testing.T) {
	root := unlistedInputsTree(t)
	for _, u := range []manifest.Unmodelled{manifest.UnmodelledNone, manifest.UnmodelledImages, manifest.UnmodelledAll} {
		p, err := Open(Options{Paths: []string{root}, Root: root, ConfigPath: "none", Unmodelled: u, Static: u == manifest.UnmodelledNone})
		if err != nil {
			t.Fatal(err)
		}
		var created []string
		for _, cl := range p.Clusters {
			if p.Created(cl) != nil {
				created = append(created, cl.Name)
			}
		}
		slices.Sort(created)
		if want := []string{"hosted-cluster/hc-listed", "install-config/ocp4", "ztp-spoke/listed", "ztp-spoke/plain"}; !slices.Equal(created, want) {
			t.Errorf("unmodelled=%d: created clusters %q, want %q", u, created, want)
		}
		want := []string{"hosted: hosted/unlisted.yaml", "sites: sites/unlisted.yaml"}
		if got := notInKustomization(p.Clusters, root); !slices.Equal(got, want) {
			t.Errorf("unmodelled=%d: not-in-kustomization %q, want %q", u, got, want)
		}
	}
	p, err := Open(Options{Paths: []string{root}, Root: root, ConfigPath: "none"})
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range p.Problems() {
		if strings.HasSuffix(pr.Pos.File, "sites/unlisted.yaml") && !strings.HasSuffix(pr.Message, "kustomize does not apply it, so ClusterInstance unlisted creates no cluster") {
			t.Errorf("the warning says %q", pr.Message)
		}
	}

	// No cluster is there to select.
	for _, name := range []string{"unlisted", "ztp-spoke/unlisted", "hosted-cluster/hc-unlisted"} {
		_, err := Open(Options{Paths: []string{root}, Root: root, ConfigPath: "none", Cluster: name})
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("--cluster %s: %v, want a usage error", name, err)
		}
	}
}

// Committing the unlisted file (the pre-commit path) lints the
// kustomization's cluster, which warns about it, and no cluster the file
// would have created.
func TestUnlistedInputCommitted(t *testing.T) {
	root := unlistedInputsTree(t)
	needs := manifest.NeedKinds("ImageDigestMirrorSet", "ClusterInstance", "HostedCluster")
	for _, rel := range []string{"sites/unlisted.yaml", "hosted/unlisted.yaml"} {
		file := manifest.RealPath(filepath.Join(root, rel))
		p, err := Open(Options{Paths: []string{root}, Root: root, ConfigPath: "none", Unmodelled: manifest.UnmodelledImages,
			Only: []string{file}, Needs: &needs})
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(rel)
		if got := names(p.Clusters); got != dir {
			t.Errorf("%s: clusters %q, want %s", rel, got, dir)
		}
		if got := notInKustomization(p.Clusters, root); !slices.Equal(got, []string{dir + ": " + rel}) {
			t.Errorf("%s: not-in-kustomization %q", rel, got)
		}
	}
}
