package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// On the pre-commit path a given base file read by an overlay that does not
// build gets the build's error, on the file, pointing at the entry that
// names the missing file, with a repository-relative, one-line message.
func TestUnbuiltClusterReportedOnGivenFiles(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"platform/clusters/east/kustomization.yaml": "resources:\n  - ../../base\n  - missing.yaml\n",
		"platform/base/kustomization.yaml":          "resources:\n  - idms.yaml\n",
		"platform/base/idms.yaml":                   "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: a\nspec:\n  imageDigestMirrors:\n    - source: quay.io/a\n      mirrors: [m.example.com/a]\n",
	})
	checks, err := LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	given := filepath.Join(dir, "platform/base/idms.yaml")
	res, err := Run(context.Background(), checks, Request{Context: dir, Options: project.Options{Paths: []string{given}, Config: &config.Config{}, Root: dir}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("findings %v", shapes(res.Findings, dir))
	}
	f := res.Findings[0]
	if got := shapes(res.Findings, dir)[0]; got != "error unreadable-manifest platform/base/idms.yaml:1:1" {
		t.Errorf("finding %s", got)
	}
	if !strings.Contains(f.Message, `resources entry "missing.yaml" does not exist`) || strings.Contains(f.Message, "\n") ||
		strings.Contains(strings.TrimSuffix(f.Message, filepath.ToSlash(filepath.Join(dir, "platform/clusters/east/kustomization.yaml"))+":3:5)"), dir) ||
		!strings.Contains(f.Message, "platform/clusters/east/missing.yaml does not exist") {
		t.Errorf("message %q", f.Message)
	}
	if len(f.Related) != 1 || f.Related[0].Line != 3 || f.Related[0].Column != 5 {
		t.Errorf("related %+v", f.Related)
	}
}
