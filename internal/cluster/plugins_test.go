package cluster_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
)

// A kustomization listing a ZTP PolicyGenTemplate and a KSOPS generator:
// kustomize itself refuses to build it without plugins; mirrorlint builds
// it without them, expands the template (its policy a cluster of its own,
// values located in the template or the source CR), says once that KSOPS
// was not run, and still lints the resources beside them.
func TestGeneratorsInKustomization(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/ztp-generators")); err != nil {
		t.Fatal(err)
	}
	bin, err := filepath.Abs("../../bin/tools/kustomize")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("kustomize not installed (make tools): %v", err)
	}
	out, err := exec.Command(bin, "build", filepath.Join(root, "site-policies")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "external plugins disabled") {
		t.Fatalf("kustomize build without plugins: %v %s", err, out)
	}
	findings, clusters := lintTree(t, root)
	at := func(file, after, text string) string { return textAt(t, root, file, after, text) }
	const policy = "[site-policies/Policy/ztp-common/common-config-policy]"
	for _, want := range []string{
		"repository-lowercase " + at("site-policies/common-ranGen.yaml", "", "registry.example.com:5000/OCP") + " " + policy,
		"repository-lowercase " + at("site-policies/source-crs/DisconnectedIDMS.yaml", "", "registry.example.com:5000/OCP-art") + " " + policy,
		"repository-lowercase " + at("site-policies/hub-idms.yaml", "", "registry.redhat.io/ACM") + " [site-policies]",
		"plugin-not-run " + at("site-policies/kustomization.yaml", "", "secret-generator.yaml") + " [site-policies]",
		"source-cr-missing " + at("site-policies/common-ranGen.yaml", "", "ClusterLogForwarder.yaml") + " [site-policies]",
	} {
		if !slices.Contains(findings, want) {
			t.Errorf("missing finding %s\nfindings:\n%s", want, strings.Join(findings, "\n"))
		}
	}
	for _, f := range findings {
		if strings.Contains(f, "external plugins") || strings.HasPrefix(f, "unreadable-manifest") {
			t.Errorf("unexpected %s", f)
		}
	}
	if !slices.ContainsFunc(clusters, func(c string) bool {
		return strings.HasPrefix(c, "site-policies/Policy/ztp-common/common-config-policy: ImageDigestMirrorSet/disconnected-internal-idms@")
	}) {
		t.Errorf("clusters:\n%s", strings.Join(clusters, "\n"))
	}
}

// `clusters` says which managed clusters a generated policy is bound to.
func TestGeneratedPolicyBinding(t *testing.T) {
	res, err := cluster.Discover(cluster.Options{Paths: []string{"testdata/ztp-generators"}, Root: "testdata/ztp-generators"})
	if err != nil {
		t.Fatal(err)
	}
	res.Load(res.Clusters, cluster.LoadOptions{})
	for _, c := range res.Clusters {
		if c.Name == "site-policies/Policy/ztp-common/common-config-policy" {
			if !strings.HasSuffix(c.Reason, "; bound to the managed clusters labelled common=true") {
				t.Errorf("reason %q", c.Reason)
			}
			return
		}
	}
	t.Error("no policy cluster")
}
