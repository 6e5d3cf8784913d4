package rules

import (
	"encoding/json"
	"fmt"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// The vocabulary of the agreement test: values chosen to hit every MCO
// refusal and the corners between them (wildcards, nesting, trailing
// slashes, digests, upper case, payload scopes).
var (
	agreeSources = []string{
		"quay.io/acme/app", "quay.io/acme", "*.example.net", "registry.internal.example.net",
		"q.io/a", "q.io/a/b", "*.io", "foo.io",
		"quay.io/openshift-release-dev/ocp-release", "quay.io/openshift-release-dev/ocp-v4.0-art-dev",
	}
	badSources = []string{
		"quay.io/Acme/app", "quay.io/acme/app@sha256:" + strings.Repeat("ab", 32), "quay.io/acme/app:v1",
		"", "quay.io/acme/app/", "http://quay.io/x", "foo.io/",
	}
	agreeMirrors = []string{
		"m.example.com/acme/app", "quay.io/acme/app", "q.io/a", "m2.example.com/x",
		"z.io/a", "b.io/a", "blocked.io/x", "foo.io/m", "quay.io/openshift-release-dev/ocp-release",
	}
	badMirrors    = []string{"*.m.io", "m.example.com/Team/app", "", "/", "https://m.io/x"}
	agreePolicies = []string{"", "", "NeverContactSource", "AllowContactingSource", "Never"}
	agreeScopes   = []string{
		"registry.internal.example.net", "*.example.net", "quay.io", "foo.io/",
		"foo.io", "quay.io/acme/app/sub", "q.io/a/b/c", "blocked.io", "*.old.example.net",
		"quay.io/openshift-release-dev", "q.io/a",
	}
	badScopes     = []string{"*.example.com:5000", "", "quay.io/*", "http://foo.io"}
	agreeVersions = []string{"4.13.10", "4.14", "4.15", "4.16", "4.19"}
	agreeRelease  = []string{"", "", "quay.io/openshift-release-dev/ocp-release@sha256:" + strings.Repeat("cd", 32), "quay.io/X/Y:bad"}
)

func pick[T any](r *rand.Rand, l []T) T { return l[r.IntN(len(l))] }

// pickMostlyGood takes a bad value one time in twelve, so that most
// clusters hold at most one mistake and both verdicts are well sampled.
func pickMostlyGood(r *rand.Rand, good, bad []string) string {
	if r.IntN(12) == 0 {
		return pick(r, bad)
	}
	return pick(r, good)
}

func q(s string) string { b, _ := json.Marshal(s); return string(b) }

// randomTree writes one random cluster as a multi-document YAML file.
func randomTree(r *rand.Rand) string {
	var b strings.Builder
	entries := func(field string, withPolicy bool) {
		fmt.Fprintf(&b, "spec:\n  %s:\n", field)
		for n := 1 + r.IntN(3); n > 0; n-- {
			fmt.Fprintf(&b, "  - source: %s\n", q(pickMostlyGood(r, agreeSources, badSources)))
			if m := r.IntN(4); m > 0 {
				seen := map[string]bool{}
				b.WriteString("    mirrors:\n")
				for ; m > 0; m-- {
					v := pickMostlyGood(r, agreeMirrors, badMirrors)
					if seen[v] && withPolicy {
						continue // IDMS/ITMS duplicates are API errors, not the point here
					}
					seen[v] = true
					fmt.Fprintf(&b, "    - %s\n", q(v))
				}
			}
			if p := pick(r, agreePolicies); withPolicy && p != "" {
				fmt.Fprintf(&b, "    mirrorSourcePolicy: %s\n", q(p))
			}
		}
	}
	for i := r.IntN(3); i > 0; i-- {
		fmt.Fprintf(&b, "---\napiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: d%d\n", r.IntN(5))
		entries("imageDigestMirrors", true)
	}
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "---\napiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: c%d\n", r.IntN(5))
		entries("repositoryDigestMirrors", false)
	}
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "---\napiVersion: config.openshift.io/v1\nkind: ImageTagMirrorSet\nmetadata:\n  name: t%d\n", r.IntN(5))
		entries("imageTagMirrors", true)
	}
	if r.IntN(3) > 0 {
		b.WriteString("---\napiVersion: config.openshift.io/v1\nkind: Image\nmetadata:\n  name: cluster\nspec:\n  registrySources:\n")
		for _, field := range []string{"insecureRegistries", "blockedRegistries", "allowedRegistries"} {
			if r.IntN(3) != 0 || (field == "allowedRegistries" && r.IntN(3) != 0) {
				continue
			}
			fmt.Fprintf(&b, "    %s:\n", field)
			for n := 1 + r.IntN(2); n > 0; n-- {
				fmt.Fprintf(&b, "    - %s\n", q(pickMostlyGood(r, agreeScopes, badScopes)))
			}
		}
	}
	return b.String()
}

// TestAgreesWithRenderer lints random clusters and checks the contract
// between the MCO rules and the renderer: whenever the renderer refuses,
// an error finding sits exactly on the value it names; whenever it
// renders, no rule that predicts an MCO refusal reports an error.
func TestAgreesWithRenderer(t *testing.T) {
	t.Parallel()
	n := 1500
	if testing.Short() {
		n = 200
	}
	seed := uint64(1)
	if s := os.Getenv("AGREE_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	r := rand.New(rand.NewPCG(seed, 2))
	dir := t.TempDir()
	file := filepath.Join(dir, "tree.yaml")
	var refused, rendered, failures int
	reasons := map[string]int{}
	for i := 0; i < n && failures < 5; i++ {
		text := randomTree(r)
		version, _ := render.ParseVersion(pick(r, agreeVersions))
		release := pick(r, agreeRelease)
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		set, err := manifest.Load([]string{file}, manifest.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		cl := &cluster.Cluster{Objects: set.Objects, Problems: set.Problems, Settings: cluster.Settings{Version: version, ReleaseImage: release}}
		fs, ctx, err := newEngine(t).Lint(cl)
		if err != nil {
			t.Fatal(err)
		}
		fail := func(format string, args ...any) {
			failures++
			t.Errorf("case %d (version %s, release %q): %s\n%s", i, version, release, fmt.Sprintf(format, args...), text)
		}
		if ref := ctx.Refusal; ref != nil {
			refused++
			reasons[strings.SplitN(ref.Reason, " \"", 2)[0]]++
			o := ctx.SubjectObject(ref.Subject)
			if o == nil {
				if !hasFinding(fs, func(f check.Finding) bool { return f.Severity == check.Error && f.Rule == "release-image-invalid" }) {
					fail("refused without a subject (%v) and no release-image-invalid error", ref)
				}
				continue
			}
			want := o.Locate(manifest.ParsePath(ref.Subject.Path))
			if !hasFinding(fs, func(f check.Finding) bool {
				return f.Severity == check.Error && f.File == want.File && f.Line == want.Line && f.Column == want.Column
			}) {
				fail("renderer refuses at %s (%s: %v) but no error finding is there", want, ref.Subject.Path, ref)
			}
			continue
		}
		rendered++
		for _, f := range fs {
			if f.Severity == check.Error && mcoRules[f.Rule] {
				fail("renderer renders, but %s reports an error at %d:%d: %s", f.Rule, f.Line, f.Column, f.Message)
			}
		}
	}
	t.Logf("%d random clusters: %d refused, %d rendered; refusals by reason: %v", refused+rendered, refused, rendered, reasons)
}

func hasFinding(fs []check.Finding, ok func(check.Finding) bool) bool {
	for _, f := range fs {
		if ok(f) {
			return true
		}
	}
	return false
}
