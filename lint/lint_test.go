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

	"github.com/mirrorlint/mirrorlint/lint"
)

// One Linter serves concurrent runs (run with -race); every run gives the
// same answer.
func TestConcurrentRuns(t *testing.T) {
	l, err := lint.New()
	if err != nil {
		t.Fatal(err)
	}
	want, err := l.Lint(context.Background(), "../testdata/examples/mistakes")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := l.Lint(context.Background(), "../testdata/examples/mistakes")
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
	l, err := lint.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Lint(ctx, "testdata/example"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestLintReader(t *testing.T) {
	l, err := lint.New()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/example/mirrors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := l.LintReader(context.Background(), strings.NewReader(string(data)))
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
