package lint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/testbin"
	"github.com/mirrorlint/mirrorlint/lint"
	"github.com/mirrorlint/mirrorlint/render"
)

// These tests use the module the way outside code does, through lint and
// render only, and hold the results against the mirrorlint command's: the
// library and the command must be one tool.

// cliBinary is the mirrorlint command, linked once per test binary.
func cliBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("links the command")
	}
	return testbin.Mirrorlint(t)
}

func TestLintMatchesCommandJSON(t *testing.T) {
	t.Parallel()
	bin := cliBinary(t)
	// The command names clusters from the repository's top level; the
	// library from the root it is given.
	top, err := gitrev.TopLevel()
	if err != nil {
		t.Skipf("not in a git repository: %v", err)
	}
	l, err := lint.New(lint.WithOpenShiftVersion("4.16"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tree := range []string{
		"testdata/example",
		"../testdata/examples/mistakes",
		"../testdata/examples/disconnected",
		"../internal/cluster/testdata/gitops", // several clusters, bases, patches
	} {
		t.Run(tree, func(t *testing.T) {
			res, err := l.Lint(context.Background(), []string{tree}, lint.RootDir(top))
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "lint", "--format", "json", "--config", "none", "--openshift-version", "4.16", tree)
			out, _ := cmd.Output() // exit 1 when there are errors
			var cli struct {
				Findings []lint.Finding `json:"findings"`
			}
			if err := json.Unmarshal(out, &cli); err != nil {
				t.Fatalf("command output: %v\n%s", err, out)
			}
			if len(res.Findings) == 0 {
				t.Fatal("the tree was chosen for its findings, got none")
			}
			if !reflect.DeepEqual(res.Findings, cli.Findings) {
				got, _ := json.MarshalIndent(res.Findings, "", "  ")
				t.Fatalf("library findings differ from the command's\nlibrary:\n%s\ncommand:\n%s", got, out)
			}
		})
	}
}

func TestRenderMatchesCommand(t *testing.T) {
	t.Parallel()
	bin := cliBinary(t)
	objs := []*configv1.ImageDigestMirrorSet{{
		TypeMeta:   metav1.TypeMeta{APIVersion: "config.openshift.io/v1", Kind: "ImageDigestMirrorSet"},
		ObjectMeta: metav1.ObjectMeta{Name: "payload"},
		Spec: configv1.ImageDigestMirrorSetSpec{ImageDigestMirrors: []configv1.ImageDigestMirrors{
			{Source: "quay.io/openshift-release-dev/ocp-release", Mirrors: []configv1.ImageMirror{"mirror.example.com/ocp/release"}, MirrorSourcePolicy: configv1.NeverContactSource},
			{Source: "quay.io/openshift-release-dev/ocp-v4.0-art-dev", Mirrors: []configv1.ImageMirror{"mirror.example.com/ocp/release", "backup.example.com/ocp/release"}},
		}},
	}}
	image := &configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
		InsecureRegistries: []string{"backup.example.com"},
		BlockedRegistries:  []string{"docker.io"},
	}}
	v, err := render.ParseVersion("4.18")
	if err != nil {
		t.Fatal(err)
	}
	out, err := render.Render(render.Input{IDMSs: objs, Image: image, Version: v})
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	var doc bytes.Buffer
	for _, o := range objs {
		b, err := yaml.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		doc.Write(b)
		doc.WriteString("---\n")
	}
	img, err := yaml.Marshal(&configv1.Image{
		TypeMeta:   metav1.TypeMeta{APIVersion: "config.openshift.io/v1", Kind: "Image"},
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec:       *image,
	})
	if err != nil {
		t.Fatal(err)
	}
	doc.Write(img)
	if err := os.WriteFile(filepath.Join(dir, "objects.yaml"), doc.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	outDir := t.TempDir()
	if b, err := exec.Command(bin, "render", "--config", "none", "--openshift-version", "4.18", "-o", outDir, dir).CombinedOutput(); err != nil {
		t.Fatalf("mirrorlint render: %v\n%s", err, b)
	}
	for name, want := range map[string][]byte{
		"registries.conf": out.RegistriesConf,
		"policy.json":     out.PolicyJSON,
	} {
		got, err := os.ReadFile(filepath.Join(outDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: library and command differ\nlibrary:\n%s\ncommand:\n%s", name, want, got)
		}
	}
}
