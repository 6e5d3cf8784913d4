package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hosted cluster whose NodePool config holds an ImageTagMirrorSet is not
// rendered: HyperShift stops the NodePool, so no node gets the config (nor
// the IDMS beside the ITMS); lint reports the refusal at the ITMS's kind.
func TestStoppedNodePoolNotRendered(t *testing.T) {
	fixture := filepath.Join("..", "..", "internal", "rules", "testdata", "nodepool-config-type", "bad")
	files := map[string]string{}
	for _, name := range []string{"hc.yaml", "nodepool.yaml", "np-config.yaml"} {
		b, err := os.ReadFile(filepath.Join(fixture, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	files["np-config.yaml"] += `    ---
    apiVersion: config.openshift.io/v1
    kind: ImageDigestMirrorSet
    metadata:
      name: digests
    spec:
      imageDigestMirrors:
      - source: quay.io/acme
        mirrors: [mirror.example.com/acme]
`
	dir := writeTree(t, files)
	r := mlRun(t, "", "render", "--cluster", "hosted-cluster/hc1", dir)
	want := "[cluster hosted-cluster/hc1] " + filepath.Join(dir, "np-config.yaml") + ":9:11: error: not rendered: hypershift-operator refuses the config of NodePool hc1-workers (unsupported config type: *v1.ImageTagMirrorSet; ValidMachineConfig false): the NodePool stops, so its nodes never get a registries.conf from this config"
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant %q", r.code, r.stdout, r.stderr, want)
	}
	r = mlRun(t, "", "lint", "--cluster", "hosted-cluster/hc1", dir)
	if !strings.Contains(r.stdout, "np-config.yaml:9:11: error nodepool-config-type: NodePool hc1-workers config holds an ImageTagMirrorSet") {
		t.Errorf("lint:\n%s", r.stdout)
	}
	// Without the ITMS the pool's IDMS reaches the nodes.
	files["np-config.yaml"] = strings.Replace(files["np-config.yaml"], "kind: ImageTagMirrorSet", "kind: ImageDigestMirrorSet", 1)
	files["np-config.yaml"] = strings.Replace(files["np-config.yaml"], "imageTagMirrors:", "imageDigestMirrors:", 1)
	r = mlRun(t, "", "render", "--cluster", "hosted-cluster/hc1", writeTree(t, files))
	if r.code != 0 || !strings.Contains(r.stdout, `location = "mirror.example.com/acme"`) {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}
