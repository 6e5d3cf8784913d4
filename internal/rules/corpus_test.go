package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Rules whose error findings are expected on inputs MCO renders, because
// their docs explain why the cluster still misbehaves: the nodes refuse the
// result, MCO's output is replaced or ignored, or it is this project's
// stance.
var errorsOnRendered = map[string]bool{
	"icsp-mixed-with-sets":         true,
	"hand-written-registries-conf": true,
	"scheme-in-scope":              true,
	"duplicate-location":           true,
	"search-registry-format":       true,
	"image-config-name":            true,
}

// mcoRules are the rules that exist to predict an MCO refusal.
var mcoRules = map[string]bool{}

func init() {
	for _, r := range All() {
		if r.Origin == check.OriginMCO {
			mcoRules[r.ID] = true
		}
	}
}

type corpusCase struct {
	dir          string
	refused      string // MCO's error, "" when it renders
	crdRejects   bool
	releaseImage string
}

func readCase(c corpus.Case) corpusCase {
	cc := corpusCase{dir: c.Dir, refused: corpus.ReadTrim(c.Expected("error.txt")), releaseImage: c.ReleaseImage()}
	if _, err := os.Stat(c.Expected("crd-rejects.txt")); err == nil {
		cc.crdRejects = true
	}
	return cc
}

var quotedValue = regexp.MustCompile(`"([^"]+)"`)

// checkCase asserts the acceptance criteria on one corpus case and returns
// whether MCO refuses it.
func checkCase(t *testing.T, cc corpusCase) bool {
	t.Helper()
	set, err := manifest.Load([]string{filepath.Join(cc.dir, "manifests")}, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The render corpus models clusters without a ClusterImagePolicy (see corpus.CorpusVersion).
	cl := &cluster.Cluster{Objects: set.Objects, Problems: set.Problems, Settings: cluster.Settings{ReleaseImage: cc.releaseImage, Version: corpus.CorpusVersion}}
	fs, ctx, err := newEngine(t).Lint(cl)
	if err != nil {
		t.Fatal(err)
	}
	var errs []check.Finding
	for _, f := range fs {
		if f.Severity == check.Error {
			errs = append(errs, f)
		}
	}
	if cc.refused == "" {
		if ctx.Refusal != nil {
			t.Errorf("the renderer refuses a case MCO renders: %v", ctx.Refusal)
		}
		for _, f := range errs {
			if errorsOnRendered[f.Rule] {
				continue
			}
			if cc.crdRejects && ruleOrigin(f.Rule) == check.OriginAPI {
				continue
			}
			t.Errorf("MCO renders this case, but %s:%d:%d %s: %s", f.File, f.Line, f.Column, f.Rule, f.Message)
		}
		return false
	}
	if ctx.Refusal == nil {
		t.Errorf("MCO refuses (%s) but the renderer does not", cc.refused)
	}
	if len(errs) == 0 {
		t.Fatalf("MCO refuses (%s) and no error finding says so", cc.refused)
	}
	// The finding must sit on the value MCO names: its line holds the
	// quoted value of MCO's message.
	if m := quotedValue.FindAllStringSubmatch(cc.refused, -1); m != nil {
		value := m[len(m)-1][1]
		for _, f := range errs {
			if lineHolds(f.File, f.Line, value) {
				return true
			}
		}
		t.Errorf("MCO refuses (%s) but no error finding is on a line holding %q", cc.refused, value)
		return true
	}
	// Otherwise the renderer's subject names the value.
	if ctx.Refusal != nil {
		if o := ctx.SubjectObject(ctx.Refusal.Subject); o != nil {
			want := o.Locate(manifest.ParsePath(ctx.Refusal.Subject.Path))
			for _, f := range errs {
				if f.File == want.File && f.Line == want.Line && f.Column == want.Column {
					return true
				}
			}
			t.Errorf("MCO refuses (%s); no error finding at %s", cc.refused, want)
		}
	}
	return true
}

func ruleOrigin(id string) check.Origin {
	if r := Registry().Get(id); r != nil {
		return r.Origin
	}
	return ""
}

func lineHolds(file string, line int, value string) bool {
	data, err := os.ReadFile(file)
	if err != nil || line < 1 {
		return false
	}
	lines := strings.Split(string(data), "\n")
	return line <= len(lines) && strings.Contains(lines[line-1], value)
}

func runCorpus(t *testing.T, root string) {
	cases, err := corpus.Cases(root, "manifests")
	if err != nil {
		t.Fatal(err)
	}
	var refused, rendered int
	for _, c := range cases {
		cc := readCase(c)
		t.Run(c.Name, func(t *testing.T) {
			if checkCase(t, cc) {
				refused++
			} else {
				rendered++
			}
		})
	}
	if refused+rendered == 0 {
		t.Fatalf("no cases under %s", root)
	}
	t.Logf("%s: %d refused by MCO, %d rendered", root, refused, rendered)
}

// TestCorpusCopy runs the cases copied into testdata, so the package
// stands alone.
func TestCorpusCopy(t *testing.T) {
	t.Parallel()
	runCorpus(t, filepath.Join("testdata", "corpus"))
}

// TestSharedCorpus runs every case of the shared render corpus.
func TestSharedCorpus(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(corpus.SharedRender); err != nil {
		t.Skipf("shared corpus not available: %v", err)
	}
	runCorpus(t, corpus.SharedRender)
}

// TestRealWorld lints every real-world tree: nothing may panic, and the
// trees MCO refuses for digests in sources must get errors.
func TestRealWorld(t *testing.T) {
	t.Parallel()
	root := filepath.Join(corpus.SharedRoot, "realworld")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("real-world trees not available: %v", err)
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "[0-9]*"))
	if len(dirs) == 0 {
		t.Fatalf("no real-world trees under %s", root)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			set, err := manifest.Load([]string{dir}, manifest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			fs, _, err := newEngine(t).Lint(&cluster.Cluster{Objects: set.Objects, Problems: set.Problems, Settings: cluster.Defaults()})
			if err != nil {
				t.Fatal(err) // a rule panicked
			}
			base := filepath.Base(dir)
			if base == "049" || base == "055" {
				n := 0
				for _, f := range fs {
					if f.Severity == check.Error && (f.Rule == "source-format" || f.Rule == "icsp-format") && strings.Contains(f.Message, "@sha256:") {
						n++
					}
				}
				if n == 0 {
					t.Errorf("%s: sha256 digests in sources gave no source-format/icsp-format error", base)
				}
			}
		})
	}
}
