package krm

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// badSource flags every IDMS source containing "bad": a stand-in for the
// real rules, so this package is tested on its own.
var badSource = &check.Rule{ID: "bad-source", Severity: check.Error, Summary: "test rule",
	Check: func(c *check.Pass) {
		for _, o := range c.Objects(manifest.KindIDMS) {
			for i, m := range o.IDMS.Spec.ImageDigestMirrors {
				if strings.Contains(m.Source, "bad") {
					c.Report(o, manifest.Path{"spec", "imageDigestMirrors", i, "source"}, "source %s is bad", m.Source)
				}
			}
		}
	}}

func registry(t *testing.T) *check.Registry {
	reg, err := check.NewRegistry(badSource)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

const sourceText = `# shifted by a comment
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: mirrors
spec:
  imageDigestMirrors:
  - source: quay.io/bad/repo
    mirrors: [mirror.example.com/repo]
`

func resourceList(source, fnConfig string) string {
	return `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: config.openshift.io/v1
  kind: ImageDigestMirrorSet
  metadata:
    name: mirrors
    annotations:
      internal.config.kubernetes.io/path: 'idms.yaml'
      internal.config.kubernetes.io/index: '0'
  spec:
    imageDigestMirrors:
    - source: ` + source + `
      mirrors: [mirror.example.com/repo]
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: other
  data:
    k: v
` + fnConfig
}

func run(t *testing.T, input string) (out, stderr string, err error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "idms.yaml"), []byte(sourceText), 0o644); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	p := &Processor{Rules: registry(t), Stderr: &e, Roots: []string{dir}}
	err = p.Run(strings.NewReader(input), &o)
	return o.String(), e.String(), err
}

func TestFunctionFails(t *testing.T) {
	out, stderr, err := run(t, resourceList("quay.io/bad/repo", ""))
	var fe *FindingsError
	if !errors.As(err, &fe) || fe.Counts.Error != 1 {
		t.Fatalf("want a FindingsError with 1 error, got %v", err)
	}
	if !strings.Contains(stderr, "idms.yaml:8:13: error bad-source: source quay.io/bad/repo is bad") {
		t.Errorf("stderr lacks the positioned finding:\n%s", stderr)
	}
	rl, perr := yaml.Parse(out)
	if perr != nil {
		t.Fatal(perr)
	}
	items, _ := rl.Pipe(yaml.Lookup("items"))
	if n := len(items.Content()); n != 2 {
		t.Errorf("want 2 items passed through, got %d", n)
	}
	results, _ := rl.Pipe(yaml.Lookup("results"))
	if results == nil {
		t.Fatalf("no results:\n%s", out)
	}
	rs := results.MustString()
	for _, want := range []string{"severity: error", "kind: ImageDigestMirrorSet", "name: mirrors",
		"path: spec.imageDigestMirrors[0].source", "bad-source: source quay.io/bad/repo is bad"} {
		if !strings.Contains(rs, want) {
			t.Errorf("results lack %q:\n%s", want, rs)
		}
	}
	if !strings.Contains(rs, "idms.yaml") {
		t.Errorf("results lack the file path:\n%s", rs)
	}
}

func TestFunctionPassesItemsUnchanged(t *testing.T) {
	in := resourceList("quay.io/good/repo", "")
	out, stderr, err := run(t, in)
	if err != nil {
		t.Fatalf("clean input failed: %v\n%s", err, stderr)
	}
	if stderr != "" {
		t.Errorf("clean input printed %q", stderr)
	}
	inRL, _ := yaml.Parse(in)
	outRL, _ := yaml.Parse(out)
	a, _ := inRL.Pipe(yaml.Lookup("items"))
	b, _ := outRL.Pipe(yaml.Lookup("items"))
	if a.MustString() != b.MustString() {
		t.Errorf("items changed:\n--- in\n%s\n--- out\n%s", a.MustString(), b.MustString())
	}
	if strings.Contains(out, "results:") {
		t.Errorf("clean run has results:\n%s", out)
	}
}

func TestFunctionConfigFailOnAndEmit(t *testing.T) {
	fnConfig := `functionConfig:
  apiVersion: mirrorlint.io/v1alpha1
  kind: MirrorLint
  metadata:
    name: lint
  spec:
    emitRendered: true
    rules:
      bad-source: warning
`
	out, _, err := run(t, resourceList("quay.io/bad/repo", fnConfig))
	if err != nil {
		t.Fatalf("a warning must not fail with the default failOn: %v", err)
	}
	if !strings.Contains(out, "severity: warning") || !strings.Contains(out, "name: "+RenderedName) || !strings.Contains(out, "registries.conf:") {
		t.Errorf("want a warning result and the rendered ConfigMap:\n%s", out)
	}
	fnConfig = strings.Replace(fnConfig, "    emitRendered: true\n", "    failOn: warning\n", 1)
	if _, _, err := run(t, resourceList("quay.io/bad/repo", fnConfig)); err == nil {
		t.Errorf("failOn: warning did not fail on a warning")
	}
}

func TestParseFunctionConfig(t *testing.T) {
	for name, tc := range map[string]struct {
		in      string
		wantErr string
		check   func(*FunctionConfig) bool
	}{
		"configmap": {in: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: function-input}\ndata: {releaseImage: quay.io/r@sha256:aa, openshiftVersion: '4.16', failOn: warning, emitRendered: 'true'}\n",
			check: func(fc *FunctionConfig) bool {
				return fc.Config.ReleaseImage == "quay.io/r@sha256:aa" && fc.Config.OpenShiftVersion == "4.16" && fc.Config.FailOn == "warning" && fc.EmitRendered
			}},
		"configmap unknown key": {in: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {failon: error}\n", wantErr: `unknown key "failon"`},
		"spec unknown key":      {in: "apiVersion: mirrorlint.io/v1alpha1\nkind: MirrorLint\nmetadata: {name: x}\nspec: {failon: error}\n", wantErr: "failon"},
		"wrong kind":            {in: "apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n", wantErr: "want mirrorlint.io/v1alpha1 MirrorLint"},
		"spec": {in: "apiVersion: mirrorlint.io/v1alpha1\nkind: MirrorLint\nmetadata: {name: x}\nspec: {openshiftVersion: '4.14', exclude: [tmp/]}\n",
			check: func(fc *FunctionConfig) bool {
				return fc.Config.OpenShiftVersion == "4.14" && len(fc.Config.Exclude) == 1 && !fc.EmitRendered
			}},
	} {
		t.Run(name, func(t *testing.T) {
			fc, err := ParseFunctionConfig(yaml.MustParse(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(fc) {
				t.Errorf("parsed %+v / %+v", fc, fc.Config)
			}
		})
	}
}

func TestFunctionNamesObjectWithoutPath(t *testing.T) {
	in := strings.Replace(resourceList("quay.io/bad/repo", ""), "      internal.config.kubernetes.io/path: 'idms.yaml'\n", "", 1)
	_, stderr, err := run(t, in)
	if err == nil {
		t.Fatal("want failure")
	}
	if !strings.Contains(stderr, "ImageDigestMirrorSet/mirrors spec.imageDigestMirrors[0].source: error bad-source:") {
		t.Errorf("stderr should name the object when no file is known:\n%s", stderr)
	}
}

// kustomize runs the function in the kustomization root and writes origin
// paths relative to it. A file of the overlay is named as kustomize names
// it; a base, outside the working directory, by its absolute path (as lint
// does), not by a ../ path relative to a directory the user may never have
// been in.
func TestFunctionPathsFromKustomizationRoot(t *testing.T) {
	repo := t.TempDir()
	overlay := filepath.Join(repo, "overlays", "prod")
	testtree.WriteAt(t, repo, map[string]string{
		"base/idms.yaml":         sourceText,
		"overlays/prod/own.yaml": strings.ReplaceAll(sourceText, "name: mirrors", "name: own"),
	})
	t.Chdir(overlay)
	item := func(name, path string) string {
		return `- apiVersion: config.openshift.io/v1
  kind: ImageDigestMirrorSet
  metadata:
    name: ` + name + `
    annotations:
      internal.config.kubernetes.io/path: '` + path + `'
  spec:
    imageDigestMirrors:
    - source: quay.io/bad/repo
      mirrors: [mirror.example.com/repo]
`
	}
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + item("mirrors", "../../base/idms.yaml") + item("own", "own.yaml")
	var o, e bytes.Buffer
	// The command gives the repository as the limit of what is read.
	p := &Processor{Rules: registry(t), Stderr: &e, Access: safefs.New(0, repo)}
	if err := p.Run(strings.NewReader(in), &o); err == nil {
		t.Fatal("want a FindingsError")
	}
	for _, want := range []string{
		filepath.Join(repo, "base", "idms.yaml") + ":8:13: error bad-source",
		"\nown.yaml:8:13: error bad-source",
	} {
		if !strings.Contains("\n"+e.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, e.String())
		}
	}
	if strings.Contains(e.String(), "../") {
		t.Errorf("stderr names a file relative to the kustomization root by climbing out of it:\n%s", e.String())
	}
}

// An inline suppression in the item's origin file applies to the finding
// relocated there, and is not reported as unused.
func TestFunctionInlineSuppression(t *testing.T) {
	dir := t.TempDir()
	src := strings.Replace(sourceText, "  - source: quay.io/bad/repo\n",
		"  # mirrorlint:ignore bad-source vendored, fixed upstream\n  - source: quay.io/bad/repo\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "idms.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	p := &Processor{Rules: registry(t), Stderr: &e, Roots: []string{dir}}
	if err := p.Run(strings.NewReader(resourceList("quay.io/bad/repo", "")), &o); err != nil {
		t.Fatalf("the suppressed finding still fails the function: %v\nstderr:\n%s", err, e.String())
	}
	if strings.Contains(e.String(), "bad-source") || strings.Contains(e.String(), "unused-suppression") {
		t.Errorf("stderr reports the suppressed finding or its suppression:\n%s", e.String())
	}
	rl, err := yaml.Parse(o.String())
	if err != nil {
		t.Fatal(err)
	}
	if results, _ := rl.Pipe(yaml.Lookup("results")); results != nil && len(results.Content()) > 0 {
		t.Errorf("results hold the suppressed finding:\n%s", results.MustString())
	}
}

// An annotation suppression on an item applies although its findings are
// relocated to the origin file.
func TestFunctionAnnotationSuppression(t *testing.T) {
	in := strings.Replace(resourceList("quay.io/bad/repo", ""),
		"      internal.config.kubernetes.io/index: '0'\n",
		"      internal.config.kubernetes.io/index: '0'\n      mirrorlint.io/ignore: 'bad-source: vendored'\n", 1)
	_, stderr, err := run(t, in)
	if err != nil {
		t.Fatalf("the suppressed finding still fails the function: %v\nstderr:\n%s", err, stderr)
	}
	if strings.Contains(stderr, "bad-source") || strings.Contains(stderr, "unused-suppression") {
		t.Errorf("stderr reports the suppressed finding or its suppression:\n%s", stderr)
	}
}

// The items go out exactly as they came in: the runner's own annotations
// (an internal path without its legacy twin, the annotation-migration id, a
// kustomize resource id) are neither dropped nor completed, and nothing is
// reformatted. A runner that compares its resources before and after the
// function sees no change.
func TestFunctionItemsExactlyAsGiven(t *testing.T) {
	in := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: config.openshift.io/v1
  kind: ImageDigestMirrorSet
  metadata:
    annotations:
      kustomize.config.k8s.io/id: |
        group: config.openshift.io
        kind: ImageDigestMirrorSet
        name: mirrors
        version: v1
      internal.config.kubernetes.io/path: 'idms.yaml'
      internal.config.kubernetes.io/annotations-migration-resource-id: '0'
      internal.config.kubernetes.io/id: '1'
    name: mirrors
  spec:
    imageDigestMirrors:
    - mirrors:
      - mirror.example.com/repo
      source: quay.io/good/repo
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: no-annotations
  data: {k: v}
`
	out, stderr, err := run(t, in)
	if err != nil {
		t.Fatalf("clean input failed: %v\n%s", err, stderr)
	}
	items := func(doc string) string {
		rl, err := yaml.Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		n, err := rl.Pipe(yaml.Lookup("items"))
		if err != nil || n == nil {
			t.Fatalf("no items in\n%s", doc)
		}
		return n.MustString()
	}
	if got, want := items(out), items(in); got != want {
		t.Errorf("items changed:\n--- in\n%s\n--- out\n%s", want, got)
	}
	for _, added := range []string{"config.kubernetes.io/path:", "config.kubernetes.io/index"} {
		if strings.Count(out, added) != strings.Count(in, added) {
			t.Errorf("the output adds %s:\n%s", added, out)
		}
	}
}

// The functionConfig is a file of the tree kustomize builds: a setting
// that widens the run is refused with an error result naming it, and not
// applied.
func TestFunctionConfigCannotWidenTheRun(t *testing.T) {
	outside := t.TempDir()
	fnConfig := `functionConfig:
  apiVersion: mirrorlint.io/v1alpha1
  kind: MirrorLint
  metadata:
    name: lint
  spec:
    allowNet: true
    policyTimeout: 1000h
    data: [` + filepath.Join(outside, "data.yaml") + `]
`
	out, _, err := run(t, resourceList("quay.io/good/repo", fnConfig))
	var fe *FindingsError
	if !errors.As(err, &fe) || fe.Counts.Error != 3 {
		t.Fatalf("want 3 refusals failing the run, got %v\n%s", err, out)
	}
	for _, want := range []string{
		"functionConfig spec.allowNet: allowNet: true lets policies reach the network; refused: the functionConfig is a file of the tree the function lints, so a pull request could set it, and the function takes no flags. The setting is not available in the KRM function: lint the built output with `kustomize build DIR | mirrorlint lint --allow-net ... -` instead",
		"functionConfig spec.policyTimeout: policyTimeout 1000h is longer than the default 10s; refused",
		"lint --policy-timeout ... -`",
		"functionConfig spec.data[0]: data file " + filepath.Join(outside, "data.yaml") + " is outside the repository; refused",
		"lint --data ... -`",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("results lack %q:\n%s", want, out)
		}
	}
	// The function has no --config: its messages must not send the user
	// to one.
	if strings.Contains(out, "--config") {
		t.Errorf("a refusal names --config, which the function does not have:\n%s", out)
	}
}
