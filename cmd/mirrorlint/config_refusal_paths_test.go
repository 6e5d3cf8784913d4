package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// Outside any git repository, a found config naming data and cluster
// paths outside the tree is refused in words that name the paths as the
// config writes them (relative to the config file) and the config file as
// it is reached from the working directory, a parent's included: never by
// the machine's absolute paths.
func TestConfigRefusalNamesPathsAsWritten(t *testing.T) {
	top := t.TempDir()
	idms := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: a\nspec:\n  imageDigestMirrors:\n  - source: quay.io/a\n    mirrors: [m.example.com/a]\n"
	testtree.WriteAt(t, top, map[string]string{
		"outside/data.json": "{}\n",
		"outside/idms.yaml": idms,
		"repo/.mirrorlint.yaml": "data:\n- ../outside/data.json\n- link.json\n" +
			"clusters:\n- name: other\n  paths:\n  - ../outside\n",
		"repo/idms.yaml":     idms,
		"repo/sub/idms.yaml": idms,
	})
	// A link in the tree to a file outside it: refused as the link.
	if err := os.Symlink(filepath.Join("..", "outside", "data.json"), filepath.Join(top, "repo", "link.json")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, config string }{{"repo", ".mirrorlint.yaml"}, {"repo/sub", "../.mirrorlint.yaml"}} {
		t.Chdir(filepath.Join(top, filepath.FromSlash(c.dir)))
		r := mlRun(t, "", "lint", ".")
		for _, want := range []string{
			c.config + ":2:1: error unreadable-manifest: " + c.config + ":2: data[0]: data file ../outside/data.json is outside the repository (use --data)",
			c.config + ":3:1: error unreadable-manifest: " + c.config + ":3: data[1]: data file link.json is outside the repository (use --data)",
			c.config + ":7:1: error unreadable-manifest: " + c.config + ":7: clusters[0].paths[0]: cluster other reads ../outside, outside the repository",
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("lint in %s: no %q:\n%s\n%s", c.dir, want, r.stdout, r.stderr)
			}
		}
		if strings.Contains(r.stdout+r.stderr, top) {
			t.Errorf("lint in %s names a path by the machine's absolute path %s:\n%s\n%s", c.dir, top, r.stdout, r.stderr)
		}
	}
	// The link itself, found in the tree, is named by what it holds.
	t.Chdir(filepath.Join(top, "repo"))
	if r := mlRun(t, "", "lint", "."); !strings.Contains(r.stdout, "link.json: warning unreadable-manifest: symlink points outside . (to ../outside/data.json); not followed") {
		t.Errorf("the link's warning:\n%s", r.stdout)
	}
}
