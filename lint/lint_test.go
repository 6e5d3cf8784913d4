package lint_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"github.com/mirrorlint/mirrorlint/lint"
)

// One Linter serves concurrent runs (run with -race); every run gives the
// same answer.
func TestConcurrentRuns(t *testing.T) {
	t.Parallel()
	l, err := lint.New()
	if err != nil {
		t.Fatal(err)
	}
	want, err := l.Lint(context.Background(), []string{"../testdata/examples/mistakes"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := l.Lint(context.Background(), []string{"../testdata/examples/mistakes"})
			if err == nil && !reflect.DeepEqual(got.Findings, want.Findings) {
				err = errors.New("a concurrent run gave different findings")
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestCanceledContext(t *testing.T) {
	t.Parallel()
	l, err := lint.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Lint(ctx, []string{"testdata/example"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestLintReader(t *testing.T) {
	t.Parallel()
	l, err := lint.New()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/example/mirrors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := l.LintReader(context.Background(), "mirrors.yaml", strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Fails(lint.Error) || len(res.Clusters) != 1 || res.Clusters[0].Refusal == nil {
		t.Fatalf("stream not linted: %+v", res)
	}
	for _, f := range res.Findings {
		if f.Rule == "repository-lowercase" && f.Line != 7 {
			t.Errorf("stream finding at line %d, want 7", f.Line)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	t.Parallel()
	for name, opt := range map[string]lint.Option{
		"version":     lint.WithOpenShiftVersion("five"),
		"config":      lint.WithConfigFile(filepath.Join(t.TempDir(), "missing.yaml")),
		"policy dir":  lint.WithPolicies(filepath.Join(t.TempDir(), "nope")),
		"policy data": lint.WithData(filepath.Join(t.TempDir(), "nope.yaml")),
	} {
		if _, err := lint.New(opt); err == nil {
			t.Errorf("%s: bad option accepted", name)
		}
	}
}

func TestRulesListed(t *testing.T) {
	t.Parallel()
	l, err := lint.New()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]lint.Severity{}
	for _, r := range l.Rules() {
		if r.Summary == "" || r.Doc == "" {
			t.Errorf("rule %s has no summary or doc", r.ID)
		}
		ids[r.ID] = r.Severity
	}
	for id, sev := range map[string]lint.Severity{"source-format": lint.Error, "icsp-deprecated": lint.Info, "icsp-mixed-with-sets": lint.Error} {
		if ids[id] != sev {
			t.Errorf("rule %s: severity %v, want %v", id, ids[id], sev)
		}
	}
}

func TestSeverityText(t *testing.T) {
	t.Parallel()
	for _, s := range []lint.Severity{lint.Info, lint.Warning, lint.Error} {
		b, _ := s.MarshalText()
		var back lint.Severity
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Errorf("%v does not round-trip: %q %v", s, b, err)
		}
	}
	if lint.Error.String() != "error" || !(lint.Error > lint.Warning && lint.Warning > lint.Info) {
		t.Error("severity order or names wrong")
	}
}

// The feature set decides which signature policy API a release serves: a
// v1alpha1 ClusterImagePolicy on 4.19 is refused under the Default feature
// set and rendered under TechPreviewNoUpgrade.
func TestWithFeatureSet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cip := `apiVersion: config.openshift.io/v1alpha1
kind: ClusterImagePolicy
metadata:
  name: acme
spec:
  scopes: [quay.io/acme]
  policy:
    rootOfTrust:
      policyType: PublicKey
      publicKey:
        keyData: ` + testtree.PublicKeyData + `
`
	if err := os.WriteFile(filepath.Join(dir, "cip.yaml"), []byte(cip), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts      []lint.Option
		refused   bool
		signature bool
	}{
		{[]lint.Option{lint.WithOpenShiftVersion("4.19")}, true, false},
		{[]lint.Option{lint.WithOpenShiftVersion("4.19"), lint.WithFeatureSet("TechPreviewNoUpgrade")}, false, true},
	} {
		l, err := lint.New(tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		res, err := l.Lint(context.Background(), []string{dir})
		if err != nil {
			t.Fatal(err)
		}
		if res.Fails(lint.Error) != tc.refused {
			t.Errorf("%d options: fails=%v, want %v: %+v", len(tc.opts), res.Fails(lint.Error), tc.refused, res.Findings)
		}
		out := res.Clusters[0].Output
		if got := out != nil && strings.Contains(string(out.PolicyJSON), "quay.io/acme"); got != tc.signature {
			t.Errorf("%d options: policy.json holds the scope: %v, want %v", len(tc.opts), got, tc.signature)
		}
	}
}
