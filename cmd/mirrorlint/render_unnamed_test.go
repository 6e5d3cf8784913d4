package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tree whose leftover files are the unnamed cluster (".") beside a
// cluster the inputs create (a hosted cluster) renders both with -o: the
// unnamed one to the directory itself, the other under its name, from
// render and from lint --render alike.
func TestRenderDirWithUnnamedClusterBesideCreated(t *testing.T) {
	t.Parallel()
	tree, _ := stoppedPoolTrees(t)
	if err := os.WriteFile(filepath.Join(tree, "idms.yaml"), []byte("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: leftover\nspec:\n  imageDigestMirrors:\n  - source: quay.io/leftover\n    mirrors: [mirror.example.com/leftover]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"render", "-o"}, {"lint", "--render"}} {
		out := t.TempDir()
		r := mlRun(t, "", append(args, out, tree)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
		}
		for file, want := range map[string]string{
			"registries.conf":                    `location = "mirror.example.com/leftover"`,
			"hosted-cluster/hc1/registries.conf": `location = "mirror.example.com/acme"`,
		} {
			b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(file)))
			if err != nil || !strings.Contains(string(b), want) {
				t.Errorf("%v: %s: %v\n%s\nstderr:\n%s", args, file, err, b, r.stderr)
			}
		}
	}
}
