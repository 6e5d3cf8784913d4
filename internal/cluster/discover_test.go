package cluster

import (
	"fmt"
	"strings"
	"testing"
)

// summary is a cluster as one comparable line.
func summary(c *Cluster) string {
	var objs []string
	for _, o := range c.Objects {
		objs = append(objs, fmt.Sprintf("%s@%s", o.Ref(), o.Position()))
	}
	return fmt.Sprintf("%s [%s] %s", c.Name, c.Source, strings.Join(objs, " "))
}

func discover(t *testing.T, paths ...string) *Result {
	t.Helper()
	res, err := Discover(Options{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestDiscoverGitOps(t *testing.T) {
	res := discover(t, "testdata/gitops")
	var got []string
	for _, c := range res.Clusters {
		got = append(got, summary(c))
		for _, p := range c.Problems {
			t.Errorf("%s: unexpected problem %s", c.Name, p)
		}
	}
	want := []string{
		"overlays/dev [kustomization] ImageDigestMirrorSet/release@testdata/gitops/base/idms-release.yaml:2:1 ImageContentSourcePolicy/legacy-tools@testdata/gitops/overlays/dev/icsp-legacy.yaml:2:1",
		"overlays/prod [kustomization] ImageDigestMirrorSet/release@testdata/gitops/base/idms-release.yaml:2:1 ImageDigestMirrorSet/apps@testdata/gitops/overlays/prod/idms-apps.yaml:1:1",
		"clusters/lab [plain directory] ImageDigestMirrorSet/lab@testdata/gitops/clusters/lab/idms.yaml:1:1 Image/cluster@testdata/gitops/clusters/lab/image.yaml:1:1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("clusters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	t.Logf("stats %+v", res.Stats)
}
