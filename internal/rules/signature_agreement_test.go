package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/randcluster"
	"github.com/mirrorlint/mirrorlint/render"
)

// lintSignatureCluster lints one tree with the signature corpus settings.
func lintSignatureCluster(t *testing.T, dir string, s cluster.Settings) ([]check.Finding, *check.Context) {
	t.Helper()
	set, err := manifest.Load([]string{dir}, manifest.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	fs, ctx, err := newEngine(t).Lint(&cluster.Cluster{Objects: set.Objects, Problems: set.Problems, Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	return fs, ctx
}

// checkRefusalPlaced asserts the contract between renderer and rules on
// one linted cluster: a refusal has an error finding on the value its
// subject names; a render has no error from a rule that predicts an MCO
// refusal. It returns a description of the first breach, "" when none.
func checkRefusalPlaced(fs []check.Finding, ctx *check.Context) string {
	if ref := ctx.Refusal; ref != nil {
		o := ctx.SubjectObject(ref.Subject)
		if o == nil {
			if hasFinding(fs, func(f check.Finding) bool { return f.Severity == check.Error && f.Rule == "release-image-invalid" }) {
				return ""
			}
			return "refused without a subject in the tree: " + ref.Error()
		}
		want := o.Locate(manifest.ParsePath(ref.Subject.Path))
		if !hasFinding(fs, func(f check.Finding) bool {
			return f.Severity == check.Error && f.File == want.File && f.Line == want.Line && f.Column == want.Column
		}) {
			return "the renderer refuses at " + want.String() + " (" + ref.Error() + ") but no error finding is there"
		}
		return ""
	}
	for _, f := range fs {
		if f.Severity == check.Error && mcoRules[f.Rule] {
			return "the renderer renders, but " + f.Rule + " reports: " + f.Message
		}
	}
	return ""
}

// TestSignatureCorpusFindings lints every case of the signature corpus
// (and its copy in render/testdata): MCO's refusals must come with an
// error finding on the offending value (the scope, or the blocked entry
// for the default policy, which is not in the tree), rendered cases with
// no MCO-refusal error, and an order-dependent case with the finding that
// says so.
func TestSignatureCorpusFindings(t *testing.T) {
	t.Parallel()
	corpus.RunBoth(t, "../../render/testdata/signature", corpus.SharedSignature, func(t *testing.T, root string) {
		cases, err := corpus.Cases(root, "manifests")
		if err != nil || len(cases) == 0 {
			t.Fatalf("no cases under %s (%v)", root, err)
		}
		for _, c := range cases {
			t.Run(c.Name, func(t *testing.T) {
				v, err := c.Version()
				if err != nil {
					t.Fatal(err)
				}
				fs, ctx := lintSignatureCluster(t, filepath.Join(c.Dir, "manifests"), cluster.Settings{Version: v, ReleaseImage: c.ReleaseImage()})
				if corpus.ReadTrim(c.Expected("order-dependent.txt")) != "" {
					if !hasFinding(fs, func(f check.Finding) bool { return f.Rule == "duplicate-policy-scope" }) {
						t.Errorf("MCO's answer depends on object order and no duplicate-policy-scope finding says so")
					}
					return
				}
				want := corpus.ReadTrim(c.Expected("error.txt"))
				if (want != "") != (ctx.Refusal != nil) {
					t.Fatalf("MCO refuses: %q; the renderer: %v", want, ctx.Refusal)
				}
				if msg := checkRefusalPlaced(fs, ctx); msg != "" {
					t.Error(msg)
				}
				if want != "" {
					// The finding carries MCO's own message.
					reason := want[strings.LastIndex(want, ": ")+2:]
					if !hasFinding(fs, func(f check.Finding) bool { return f.Severity == check.Error && strings.Contains(f.Message, reason) }) {
						t.Errorf("no error finding quotes MCO's reason %q", reason)
					}
				}
			})
		}
	})
}

// TestSignatureAgreesWithRenderer lints random clusters with signature
// policies (randcluster) for each release and checks the same contract.
func TestSignatureAgreesWithRenderer(t *testing.T) {
	t.Parallel()
	n := 300
	if testing.Short() {
		n = 60
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "tree.yaml")
	failures := 0
	for _, minor := range []int{19, 20, 21} {
		r := rand.New(rand.NewPCG(3, uint64(minor)))
		refused := 0
		for i := 0; i < n && failures < 5; i++ {
			c := randcluster.Generate(r, randcluster.Options{Minor: minor})
			if err := os.WriteFile(file, []byte(c.Manifests), 0o644); err != nil {
				t.Fatal(err)
			}
			fs, ctx := lintSignatureCluster(t, dir, cluster.Settings{Version: render.Version{Minor: minor, Patch: -1}, ReleaseImage: c.ReleaseImage})
			if ctx.Refusal != nil {
				refused++
			}
			if msg := checkRefusalPlaced(fs, ctx); msg != "" {
				failures++
				t.Errorf("4.%d case %d (release %s): %s\n%s", minor, i, c.ReleaseImage, msg, c.Manifests)
			}
		}
		t.Logf("4.%d: %d random clusters, %d refused", minor, n, refused)
	}
}
