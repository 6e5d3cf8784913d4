package rules_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"github.com/mirrorlint/mirrorlint/lint"
)

// placeholderBase is a reference configuration's IDMS: its mirror is the
// value to fill in.
const placeholderBase = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: operators
spec:
  imageDigestMirrors:
    - source: registry.redhat.io/oadp
      mirrors:
        - <registry.example.com:8443>/oadp
`

// placeholderSMP is an overlay's strategic-merge patch of it; kustomize
// replaces the CRD's list with the patch's.
const placeholderSMP = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: operators
spec:
  imageDigestMirrors:
    - source: registry.redhat.io/oadp
      mirrors:
        - %s
`

const placeholderOverlay = `resources:
  - ../base
patches:
`

// placeholderMessage is the placeholder warning on the IDMS above.
const placeholderMessage = `<registry.example.com:8443> is an unfilled placeholder ("<registry.example.com:8443>/oadp"): the API server refuses such a value, so ImageDigestMirrorSet/operators was not checked further and is left out of the render; write the real value before applying it`

// TestPlaceholderRestatedByOverlay: the placeholder warning is on the
// value that reaches the cluster. When an overlay's patch (strategic
// merge or JSON 6902, in a file or inline) writes or restates the
// placeholder, the warning is on the patch's line, since filling in the
// base alone would change nothing; when the overlay fills it in there is
// none; when the overlay patches something else it stays in the base.
// Each tree is built with the real kustomize too, which must deliver the
// placeholder exactly when mirrorlint reports it; the stream of that build
// (`kustomize build | mirrorlint lint -`) is placed the same way.
func TestPlaceholderRestatedByOverlay(t *testing.T) {
	realBase := strings.Replace(placeholderBase, "<registry.example.com:8443>/oadp", "mirror.example.com/oadp", 1)
	cases := []struct {
		name  string
		base  string
		files map[string]string // overlay files; kustomization.yaml is placeholderOverlay plus its patches
		want  string            // file:line:column of the warning; "" for none
	}{
		{"smp-restates", placeholderBase, map[string]string{
			"kustomization.yaml": "  - path: idms-patch.yaml\n",
			"idms-patch.yaml":    fmt.Sprintf(placeholderSMP, "<registry.example.com:8443>/oadp"),
		}, "overlay/idms-patch.yaml:9:11"},
		{"smp-writes", realBase, map[string]string{
			"kustomization.yaml": "  - path: idms-patch.yaml\n",
			"idms-patch.yaml":    fmt.Sprintf(placeholderSMP, "<registry.example.com:8443>/oadp"),
		}, "overlay/idms-patch.yaml:9:11"},
		{"smp-fills", placeholderBase, map[string]string{
			"kustomization.yaml": "  - path: idms-patch.yaml\n",
			"idms-patch.yaml":    fmt.Sprintf(placeholderSMP, "mirror.example.com/oadp"),
		}, ""},
		{"json6902-restates", placeholderBase, map[string]string{
			"kustomization.yaml": "  - path: mirror.yaml\n    target:\n      kind: ImageDigestMirrorSet\n      name: operators\n",
			"mirror.yaml":        "- op: replace\n  path: /spec/imageDigestMirrors/0/mirrors/0\n  value: <registry.example.com:8443>/oadp\n",
		}, "overlay/mirror.yaml:3:10"},
		{"json6902-inline-restates", placeholderBase, map[string]string{
			"kustomization.yaml": "  - target:\n      kind: ImageDigestMirrorSet\n    patch: |-\n      - op: replace\n        path: /spec/imageDigestMirrors/0\n        value:\n          source: registry.redhat.io/oadp\n          mirrors:\n            - <registry.example.com:8443>/oadp\n",
		}, "overlay/kustomization.yaml:12:15"},
		{"json6902-fills", placeholderBase, map[string]string{
			"kustomization.yaml": "  - path: mirror.yaml\n    target:\n      kind: ImageDigestMirrorSet\n",
			"mirror.yaml":        "- op: replace\n  path: /spec/imageDigestMirrors/0/mirrors/0\n  value: mirror.example.com/oadp\n",
		}, ""},
		{"other-value-patched", placeholderBase, map[string]string{
			"kustomization.yaml": "  - path: policy.yaml\n    target:\n      kind: ImageDigestMirrorSet\n",
			"policy.yaml":        "- op: add\n  path: /spec/imageDigestMirrors/0/mirrorSourcePolicy\n  value: NeverContactSource\n",
		}, "base/idms.yaml:9:11"},
	}
	kustomize := kustomizeBinary(t)
	l, err := lint.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write := func(rel, text string) {
				t.Helper()
				testtree.WriteFile(t, filepath.Join(root, rel), text)
			}
			write("base/idms.yaml", tc.base)
			write("base/kustomization.yaml", "resources:\n  - idms.yaml\n")
			for rel, text := range tc.files {
				if rel == "kustomization.yaml" {
					text = placeholderOverlay + text
				}
				write("overlay/"+rel, text)
			}

			built, err := exec.Command(kustomize, "build", filepath.Join(root, "overlay")).CombinedOutput()
			if err != nil {
				t.Fatalf("kustomize build: %v\n%s", err, built)
			}
			if delivered := strings.Contains(string(built), "<registry.example.com:8443>/oadp"); delivered != (tc.want != "") {
				t.Fatalf("kustomize delivers the placeholder: %v, the test expects a warning: %q\n%s", delivered, tc.want, built)
			}

			res, err := l.Lint(context.Background(), []string{root}, lint.RootDir(root))
			if err != nil {
				t.Fatal(err)
			}
			checkPlaceholder(t, "tree", root, res.Findings, tc.want)

			// The same build as a stream, with the origin annotations the
			// stream path follows back to the files.
			write("overlay/kustomization.yaml", placeholderOverlay+tc.files["kustomization.yaml"]+"buildMetadata: [originAnnotations]\n")
			stream, err := exec.Command(kustomize, "build", filepath.Join(root, "overlay")).Output()
			if err != nil {
				t.Fatalf("kustomize build: %v", err)
			}
			t.Chdir(root)
			res, err = l.LintReader(context.Background(), "-", strings.NewReader(string(stream)), lint.RootDir(root), lint.ContextDir("overlay"))
			if err != nil {
				t.Fatal(err)
			}
			checkPlaceholder(t, "stream", root, res.Findings, tc.want)
		})
	}
}

func checkPlaceholder(t *testing.T, how, root string, fs []lint.Finding, want string) {
	t.Helper()
	var got []string
	for _, f := range fs {
		if f.Rule == "placeholder" {
			file := f.File
			if rel, err := filepath.Rel(root, f.File); err == nil && !strings.HasPrefix(rel, "..") {
				file = filepath.ToSlash(rel)
			}
			got = append(got, fmt.Sprintf("%s:%d:%d", file, f.Line, f.Column))
			if f.Message != placeholderMessage {
				t.Errorf("%s: message %q, want %q", how, f.Message, placeholderMessage)
			}
			continue
		}
		t.Errorf("%s: unexpected finding %s %s:%d:%d: %s", how, f.Rule, f.File, f.Line, f.Column, f.Message)
	}
	if want == "" && len(got) > 0 || want != "" && (len(got) != 1 || got[0] != want) {
		t.Errorf("%s: placeholder warnings at %v, want %q", how, got, want)
	}
}

// kustomizeBinary is the pinned kustomize of bin/tools.
func kustomizeBinary(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs("../../bin/tools/kustomize")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("kustomize: %v (make tools installs it)", err)
	}
	return bin
}
