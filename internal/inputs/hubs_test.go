package inputs

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"github.com/mirrorlint/mirrorlint/render"
)

// hubFile is a hub's AgentServiceConfig (always named agent) and the
// mirror ConfigMap it names, in the operator's namespace; every hub's
// ConfigMap has the same name, as copies of one example do. The
// registries.conf writes a prefix (hub-mirror-prefix-ignored) and mirrors
// source to mirror.
func hubFile(source, mirror string) string {
	return testtree.HubFile("custom-registries", fmt.Sprintf(`[[registry]]
prefix = "registry.redhat.io"
location = %q

[[registry.mirror]]
  location = %q
`, source, mirror))
}

func hostedFile(ns, source, mirror string) string {
	return fmt.Sprintf(`apiVersion: hypershift.openshift.io/v1beta1
kind: HostedCluster
metadata:
  name: hosted
  namespace: %s
spec:
  imageContentSources:
  - source: %s
    mirrors: [%s]
`, ns, source, mirror)
}

// readAt loads files written under a temporary directory and reads their
// inputs; dirOf names a file's directory relative to that directory, as
// cluster.Result.DirName does from a repository root.
func readAt(t *testing.T, files map[string]string) (*Result, func(string) string) {
	t.Helper()
	dir := t.TempDir()
	testtree.WriteAt(t, dir, files)
	set, err := manifest.Load([]string{dir}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	dirOf := func(file string) string {
		rel, err := filepath.Rel(dir, filepath.Dir(file))
		if err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(rel)
	}
	return Read(set.Objects, render.Version{}), dirOf
}

// mirrorsOf are the mirrors of c's IDMSs, then of its ICSPs (a spoke
// before 4.14 has these instead), in order.
func mirrorsOf(c *Cluster) []string {
	var out []string
	for _, idms := range c.IDMSs {
		for _, e := range idms.Spec.ImageDigestMirrors {
			for _, m := range e.Mirrors {
				out = append(out, string(m))
			}
		}
	}
	for _, icsp := range c.ICSPs {
		for _, e := range icsp.Spec.RepositoryDigestMirrors {
			out = append(out, e.Mirrors...)
		}
	}
	return out
}

// Every hub of a tree installs spokes with its own mirrors: each hub's
// AgentServiceConfig reads the ConfigMap beside it, not the first one of
// that name in the tree, and each is a cluster, so the
// findings of every hub's registries.conf are reported. A site gets the
// mirrors of the hub nearest it, and that hub has no cluster of its own.
func TestEveryHubItsSpokes(t *testing.T) {
	res, dirOf := readAt(t, map[string]string{
		"clusters/hub-a/asc.yaml": hubFile("registry.redhat.io/a", "mirror.example.com/a"),
		"clusters/hub-b/asc.yaml": hubFile("registry.redhat.io/b", "mirror.example.com/b"),
		"clusters/hub-c/asc.yaml": hubFile("registry.redhat.io/c", "mirror.example.com/c"),
		"clusters/hub-c/sites/sno1.yaml": `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata:
  name: sno1
  namespace: sno1
spec:
  clusters:
  - clusterName: sno1
`,
	})
	var names []string
	for _, c := range res.Clusters {
		names = append(names, c.Kind+"/"+c.Name)
	}
	if want := []string{"ztp-spoke/sno1", "ztp-spoke/spokes-of-agent", "ztp-spoke/spokes-of-agent"}; !slices.Equal(names, want) {
		t.Fatalf("clusters %q, want %q", names, want)
	}
	for i, hub := range []string{"c", "a", "b"} {
		c := res.Clusters[i]
		if got := mirrorsOf(c); !slices.Equal(got, []string{"mirror.example.com/" + hub}) {
			t.Errorf("%s: mirrors %q, want hub-%s's", names[i], got, hub)
		}
		for _, in := range c.Inputs {
			if !strings.Contains(filepath.ToSlash(in.File), "/clusters/hub-"+hub+"/") {
				t.Errorf("%s holds %s %s of another hub", names[i], in.Kind, in.File)
			}
		}
	}
	if res.Clusters[0].Site == nil || res.Clusters[0].Site.Name != "sno1" || res.Clusters[1].Site != nil {
		t.Errorf("the site's spoke has its site, a hub's spokes none: %v, %v", res.Clusters[0].Site, res.Clusters[1].Site)
	}
	var ignored []string
	for _, f := range res.Findings {
		if f.Rule == RuleHubPrefixIgnored {
			ignored = append(ignored, dirOf(f.Pos.File))
		}
	}
	if !slices.Equal(ignored, []string{"clusters/hub-a", "clusters/hub-b", "clusters/hub-c"}) {
		t.Errorf("prefix findings in %q, want one per hub", ignored)
	}
}

// A NodePool names its HostedCluster by name and namespace: of several
// HostedClusters named alike it belongs to the nearest, and its config
// ConfigMap is the one beside it.
func TestNodePoolsOfTheNearestHostedCluster(t *testing.T) {
	pool := `---
apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata:
  name: workers
  namespace: clusters
spec:
  clusterName: hosted
  config:
  - name: mirrors
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: mirrors
  namespace: clusters
data:
  config: |
    apiVersion: config.openshift.io/v1
    kind: ImageDigestMirrorSet
    metadata:
      name: pool
    spec:
      imageDigestMirrors:
      - source: quay.io/pool
        mirrors: [pool.example.com/%s]
`
	res, dirOf := readAt(t, map[string]string{
		"lab/hc.yaml":  hostedFile("clusters", "quay.io/a", "m.example.com/lab") + fmt.Sprintf(pool, "lab"),
		"prod/hc.yaml": hostedFile("clusters", "quay.io/a", "m.example.com/prod") + fmt.Sprintf(pool, "prod"),
	})
	if len(res.Clusters) != 2 {
		t.Fatalf("%d clusters, want the two hosted clusters", len(res.Clusters))
	}
	for i, env := range []string{"lab", "prod"} {
		c := res.Clusters[i]
		if got := mirrorsOf(c); !slices.Equal(got, []string{"m.example.com/" + env, "pool.example.com/" + env}) {
			t.Errorf("%s's hosted cluster: mirrors %q, want its own and its own pool's", env, got)
		}
		for _, in := range c.Inputs {
			if dirOf(in.File) != env {
				t.Errorf("%s's hosted cluster holds %s %s", env, in.Kind, in.File)
			}
		}
	}
}
