package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A hosted cluster whose NodePool config holds an ImageTagMirrorSet is not
// rendered: HyperShift stops the NodePool, so no node gets the config (nor
// the IDMS beside the ITMS); lint reports the refusal at the ITMS's kind.
func TestStoppedNodePoolNotRendered(t *testing.T) {
	t.Parallel()
	files := stoppedPoolFiles(t)
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
	dir := testtree.Write(t, files)
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
	r = mlRun(t, "", "render", "--cluster", "hosted-cluster/hc1", testtree.Write(t, files))
	if r.code != 0 || !strings.Contains(r.stdout, `location = "mirror.example.com/acme"`) {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// stoppedPoolTrees writes the hosted cluster hc1 twice: its NodePool
// config holding an ImageDigestMirrorSet (the pool runs), and holding an
// ImageTagMirrorSet instead (HyperShift stops the pool).
func stoppedPoolTrees(t *testing.T) (running, stopped string) {
	t.Helper()
	files := stoppedPoolFiles(t)
	stopped = testtree.Write(t, files)
	files["np-config.yaml"] = strings.Replace(files["np-config.yaml"], "kind: ImageTagMirrorSet", "kind: ImageDigestMirrorSet", 1)
	files["np-config.yaml"] = strings.Replace(files["np-config.yaml"], "imageTagMirrors:", "imageDigestMirrors:", 1)
	return testtree.Write(t, files), stopped
}

// diff and lint --render read the same decision as render: a stopped pool
// gets no node file, no drain verdict is made up from files its nodes never
// get, and the reason is said once, at the refused document.
func TestStoppedNodePoolNotDiffedNorWritten(t *testing.T) {
	t.Parallel()
	running, stopped := stoppedPoolTrees(t)
	reason := "hypershift-operator refuses the config of NodePool hc1-workers (unsupported config type: *v1.ImageTagMirrorSet; ValidMachineConfig false): the NodePool stops"
	at := filepath.Join(stopped, "np-config.yaml") + ":9:11"

	for _, side := range []struct{ name, old, new string }{{"new", running, stopped}, {"old", stopped, running}} {
		r := mlRun(t, "", "diff", "--cluster", "hosted-cluster/hc1", side.old, side.new)
		want := at + ": error: the " + side.name + " tree is not rendered: " + reason
		if r.code != 1 || strings.Count(r.stdout, reason) != 1 || !strings.Contains(r.stdout, want) {
			t.Errorf("diff, %s side stopped: exit %d, want 1 and once %q; stdout:\n%s\nstderr:\n%s", side.name, r.code, want, r.stdout, r.stderr)
		}
		// The stopped side's files would show the ITMS's source removed
		// and drain: its nodes never get them.
		if strings.Contains(r.stdout, "/etc/containers/") || strings.Contains(r.stdout, "DRAIN") {
			t.Errorf("diff, %s side stopped, shows node files or a drain:\n%s", side.name, r.stdout)
		}
	}
	r := mlRun(t, "", "diff", "--format", "json", "--cluster", "hosted-cluster/hc1", running, stopped)
	var res struct {
		Drain    bool                            `json:"drain"`
		Action   string                          `json:"action"`
		Files    map[string]any                  `json:"files"`
		Stopped  []struct{ Side, Reason string } `json:"stopped"`
		Clusters []struct{ Action string }       `json:"clusters"`
		Refused  []struct{ Side, Reason string } `json:"refused"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("diff --format json: %v\n%s", err, r.stdout)
	}
	if r.code != 1 || res.Drain || res.Action != "stopped" || len(res.Files) != 0 || len(res.Refused) != 0 ||
		len(res.Stopped) != 1 || res.Stopped[0].Side != "new" || !strings.HasPrefix(res.Stopped[0].Reason, reason) ||
		len(res.Clusters) != 1 || res.Clusters[0].Action != "stopped" {
		t.Errorf("diff --format json: exit %d, %+v", r.code, res)
	}

	// lint --render: the stopped cluster gets no registries.conf (one an
	// earlier run left is removed), and stderr says why at the document.
	out := filepath.Join(t.TempDir(), "registries.conf")
	if err := os.WriteFile(out, []byte("stale\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = mlRun(t, "", "lint", "--cluster", "hosted-cluster/hc1", "--render", out, stopped)
	if _, err := os.Stat(out); err == nil {
		t.Errorf("lint --render left %s for a stopped NodePool", out)
	}
	want := "mirrorlint: --render: cluster hosted-cluster/hc1: no registries.conf written: not rendered: " + at + ": " + reason
	if r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("lint --render: exit %d, stderr:\n%s\nwant %q", r.code, r.stderr, want)
	}
	r = mlRun(t, "", "lint", "--cluster", "hosted-cluster/hc1", "--render", out, running)
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), `location = "mirror.example.com/acme"`) {
		t.Errorf("lint --render of the running pool: %q (%v); stderr:\n%s", b, err, r.stderr)
	}
}

// stoppedPoolFiles reads the hosted cluster hc1 of the nodepool-config-type
// rule's bad fixture: a NodePool whose config holds an ImageTagMirrorSet.
func stoppedPoolFiles(t *testing.T) map[string]string {
	t.Helper()
	fixture := filepath.Join("..", "..", "internal", "rules", "testdata", "nodepool-config-type", "bad")
	files := map[string]string{}
	for _, name := range []string{"hc.yaml", "nodepool.yaml", "np-config.yaml"} {
		b, err := os.ReadFile(filepath.Join(fixture, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	return files
}
