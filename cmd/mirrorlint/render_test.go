package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The example tree's expected output was checked by hand against domain.md
// §2: digest sources sorted (with NeverContactSource → blocked), then the tag
// source, then the insecure scope's own entry; the insecure scope marks every
// mirror on mirror.lab.example.com:5000 insecure.
const disconnectedWant = `unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]
short-name-mode = ""
additional-layer-store-auth-helper = ""

[[registry]]
  prefix = ""
  location = "quay.io/openshift-release-dev/ocp-release"
  blocked = true

  [[registry.mirror]]
    location = "mirror.lab.example.com:5000/openshift/release-images"
    insecure = true
    pull-from-mirror = "digest-only"

[[registry]]
  prefix = ""
  location = "quay.io/openshift-release-dev/ocp-v4.0-art-dev"
  blocked = true

  [[registry.mirror]]
    location = "mirror.lab.example.com:5000/openshift/release"
    insecure = true
    pull-from-mirror = "digest-only"

[[registry]]
  prefix = ""
  location = "registry.redhat.io/openshift4"

  [[registry.mirror]]
    location = "mirror.lab.example.com:5000/redhat/openshift4"
    insecure = true
    pull-from-mirror = "digest-only"

[[registry]]
  prefix = ""
  location = "registry.redhat.io/rhel9"

  [[registry.mirror]]
    location = "mirror.lab.example.com:5000/redhat/rhel9"
    insecure = true
    pull-from-mirror = "digest-only"

  [[registry.mirror]]
    location = "backup-mirror.example.com/redhat/rhel9"
    pull-from-mirror = "digest-only"

[[registry]]
  prefix = ""
  location = "registry.access.redhat.com/ubi9"

  [[registry.mirror]]
    location = "mirror.lab.example.com:5000/ubi9"
    insecure = true
    pull-from-mirror = "tag-only"

[[registry]]
  prefix = ""
  location = "mirror.lab.example.com:5000"
  insecure = true
`

func TestRenderExampleToStdout(t *testing.T) {
	t.Parallel()
	r := mlRun(t, "", "render", "--config", "none", "../../testdata/examples/disconnected")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r.stdout != disconnectedWant {
		t.Fatalf("render output differs:\n%s", r.stdout)
	}
}

func TestRenderOutputDirAndDropIn(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	stale := filepath.Join(out, "registries.conf.d", "01-image-searchRegistries.conf")
	r := mlRun(t, "", "render", "--config", "none", "-o", out, "../../testdata/examples/disconnected")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	got, err := os.ReadFile(filepath.Join(out, "registries.conf"))
	if err != nil || string(got) != disconnectedWant {
		t.Fatalf("registries.conf: %v\n%s", err, got)
	}
	drop, err := os.ReadFile(stale)
	want := "unqualified-search-registries = [\"registry.access.redhat.com\", \"docker.io\", \"mirror.lab.example.com:5000\"]\nshort-name-mode = \"\"\nadditional-layer-store-auth-helper = \"\"\n"
	if err != nil || string(drop) != want {
		t.Fatalf("drop-in: %v\n%q", err, drop)
	}
	// A tree whose Image sets no search registries: MCO writes no drop-in,
	// so the one from the previous run must not survive in the output dir.
	tree := testtree.Write(t, map[string]string{"idms.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: a}\nspec:\n  imageDigestMirrors:\n  - {source: quay.io/a, mirrors: [m.io/a]}\n"})
	if r := mlRun(t, "", "render", "--config", "none", "-o", out, tree); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale drop-in kept: %v", err)
	}
}

func TestRenderTemplateWhenNothingToWrite(t *testing.T) {
	t.Parallel()
	tree := testtree.Write(t, map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"})
	r := mlRun(t, "", "render", "--config", "none", tree)
	if r.code != 0 || r.stdout != "unqualified-search-registries = ['registry.access.redhat.com', 'docker.io']\n" {
		t.Fatalf("want the template bytes, got exit %d %q", r.code, r.stdout)
	}
}

// The refusal points at the mirror that repeats the source: the value to
// remove to make MCO render again.
func TestRenderRefusalPointsAtValue(t *testing.T) {
	t.Parallel()
	tree := testtree.Write(t, map[string]string{"idms.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: pinned
spec:
  imageDigestMirrors:
  - source: registry.redhat.io/ubi8
    mirrorSourcePolicy: NeverContactSource
    mirrors:
    - registry.redhat.io/ubi8
    - m.io/ubi8
`})
	r := mlRun(t, "", "render", "--config", "none", tree)
	if r.code != exitFindings || r.stdout != "" {
		t.Fatalf("exit %d, stdout %q", r.code, r.stdout)
	}
	want := filepath.Join(tree, "idms.yaml") + ":10:7: error: MCO would refuse to render: could not update registries config with new changes: cannot set mirrorSourcePolicy: NeverContactSource if the source \"registry.redhat.io/ubi8\" is one of the mirrors"
	if !strings.Contains(r.stderr, want) {
		t.Fatalf("stderr lacks the positioned refusal:\nwant %s\ngot  %s", want, r.stderr)
	}
}

func TestRenderUnreadableInputExits2(t *testing.T) {
	t.Parallel()
	tree := testtree.Write(t, map[string]string{"broken.yaml": "kind: ImageDigestMirrorSet\nspec: [\n"})
	r := mlRun(t, "", "render", "--config", "none", tree)
	if r.code != exitUsage || !strings.Contains(r.stderr, "broken.yaml:") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestRenderCorpus runs the binary's render path over every public corpus
// case: identical bytes (registries.conf and drop-in), or exit 1 and MCO's
// message where MCO refuses.
func TestRenderCorpus(t *testing.T) {
	t.Parallel()
	cases, err := corpus.Cases(sharedDir(t, "corpus/public/render"), "")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no corpus cases (%v)", err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			out := t.TempDir()
			// The render corpus models clusters without a ClusterImagePolicy (see corpus.CorpusVersion).
			r := mlRun(t, "", "render", "--config", "none", "--openshift-version", corpus.CorpusVersion.String(), "-o", out, "--release-image", c.ReleaseImage(), filepath.Join(c.Dir, "manifests"))
			if want := corpus.ReadTrim(c.Expected("error.txt")); want != "" {
				if r.code != exitFindings || !strings.Contains(r.stderr, want) {
					t.Fatalf("MCO refuses this case (%s); exit %d, stderr %s", want, r.code, r.stderr)
				}
				return
			}
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, f := range [][2]string{{"registries.conf", "registries.conf"}, {"search-registries.conf", "registries.conf.d/01-image-searchRegistries.conf"}} {
				want, werr := os.ReadFile(c.Expected(f[0]))
				got, gerr := os.ReadFile(filepath.Join(out, f[1]))
				if os.IsNotExist(werr) != os.IsNotExist(gerr) || string(want) != string(got) {
					t.Errorf("%s differs (want err %v, got err %v):\n--- want\n%s\n--- got\n%s", f[0], werr, gerr, want, got)
				}
			}
		})
	}
}
