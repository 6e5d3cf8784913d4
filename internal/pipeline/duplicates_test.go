package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// Two objects of one kind and name in a cluster: both are reported (an
// error, on metadata.name), the message of each says which one the cluster
// keeps, and the render holds only the last one applied, for the mirror
// sets as for Image/cluster.
func TestDuplicateObjectsRenderTheLastOne(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"mirrors/a.yaml": idmsDoc + "---\napiVersion: config.openshift.io/v1\nkind: Image\nmetadata:\n  name: cluster\nspec:\n  registrySources:\n    insecureRegistries: [old.example.com]\n",
		"mirrors/b.yaml": strings.ReplaceAll(idmsDoc, "registry.example.com/ocp/release", "new.example.com/ocp/release") +
			"---\napiVersion: config.openshift.io/v1\nkind: Image\nmetadata:\n  name: cluster\nspec: {}\n",
	})
	checks, err := LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), checks, Request{Options: project.Options{Paths: []string{dir}, Config: &config.Config{}}})
	if err != nil {
		t.Fatal(err)
	}
	got := shapes(only(res.Findings, "duplicate-object"), dir)
	want := []string{
		"error duplicate-object mirrors/a.yaml:14:9",
		"error duplicate-object mirrors/a.yaml:4:9",
		"error duplicate-object mirrors/b.yaml:14:9",
		"error duplicate-object mirrors/b.yaml:4:9",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	for _, f := range only(res.Findings, "duplicate-object") {
		kept := strings.HasSuffix(f.File, "b.yaml")
		if kept != strings.Contains(f.Message, "this one, applied last, replaces the others") ||
			!kept && !strings.Contains(f.Message, "b.yaml:") || len(f.Related) != 1 {
			t.Errorf("%s:%d: %s (related %v)", f.File, f.Line, f.Message, f.Related)
		}
	}
	conf := string(res.Contexts[0].Rendered.RegistriesConf)
	if !strings.Contains(conf, "new.example.com/ocp/release") || strings.Contains(conf, "old.example.com") || strings.Contains(conf, "registry.example.com") {
		t.Errorf("render does not hold only the last objects:\n%s", conf)
	}
}
