package lint

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/policy"
)

// countCompiles makes New count how often it compiles the policies.
func countCompiles(t *testing.T) *int {
	n := new(int)
	loadChecks = func(o policy.Options) (*pipeline.Checks, error) {
		*n++
		return pipeline.LoadChecks(o)
	}
	t.Cleanup(func() { loadChecks = pipeline.LoadChecks })
	return n
}

// A Linter compiled once lints two trees, with a root, a cluster and a
// context per call, and gets each tree's findings, the same as a Linter
// compiled for that tree alone, without compiling again.
func TestOneCompileManyCalls(t *testing.T) {
	compiles := countCompiles(t)
	l, err := New(WithOpenShiftVersion("4.16"))
	if err != nil {
		t.Fatal(err)
	}
	gitops := "../internal/cluster/testdata/gitops"
	calls := []struct {
		paths []string
		opts  []CallOption
	}{
		{[]string{"testdata/example"}, nil},
		{[]string{gitops}, []CallOption{RootDir(gitops)}},
		{[]string{gitops}, []CallOption{RootDir(gitops), OnlyCluster("overlays/prod")}},
		{[]string{filepath.Join(gitops, "base", "idms-release.yaml")}, []CallOption{RootDir(gitops), ContextDir(gitops)}},
	}
	var results []*Result
	for _, c := range calls {
		res, err := l.Lint(context.Background(), c.paths, c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	if *compiles != 1 {
		t.Fatalf("compiled %d times for %d calls, want once", *compiles, len(calls))
	}
	for i, c := range calls {
		fresh, err := New(WithOpenShiftVersion("4.16"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.Lint(context.Background(), c.paths, c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(results[i].Findings, want.Findings) || len(results[i].Clusters) != len(want.Clusters) {
			t.Errorf("call %d (%v): the shared Linter's result differs from a fresh one's", i, c.paths)
		}
	}
	if reflect.DeepEqual(results[0].Findings, results[1].Findings) {
		t.Error("two different trees gave the same findings")
	}
	if n := len(results[2].Clusters); n != 1 || results[2].Clusters[0].Name != "overlays/prod" {
		t.Errorf("OnlyCluster: linted %d clusters %+v, want overlays/prod alone", n, results[2].Clusters)
	}
	if len(results[1].Clusters) < 2 {
		t.Errorf("the gitops tree gave %d clusters; the test needs several", len(results[1].Clusters))
	}
}

// A stream's findings and unreadable inputs carry the name the call gives
// the stream.
func TestLintReaderNamesTheStream(t *testing.T) {
	t.Parallel()
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/example/mirrors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := l.LintReader(context.Background(), "kustomize build prod", strings.NewReader(string(data)+"---\nkind: [\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) == 0 {
		t.Fatal("no findings on the stream")
	}
	for _, f := range res.Findings {
		if f.File != "kustomize build prod" {
			t.Errorf("finding %s at %q, want the stream's name", f.Rule, f.File)
		}
	}
	u := res.Clusters[0].Unreadable
	if u == nil || u.File != "kustomize build prod" || u.Line == 0 || u.Message == "" {
		t.Fatalf("Unreadable = %+v, want the broken document's position in the stream and why", u)
	}
}
