package build

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// TestGeneratorSourceMissing: kustomize's error for a configMapGenerator
// or secretGenerator file it cannot read names the file by its absolute
// path and nothing else; the problem sits on the files:/envs:/env: item
// that names it, in the kustomization of the closure that holds it, and
// names files as the report does. The real kustomize fails on the same
// file.
func TestGeneratorSourceMissing(t *testing.T) {
	const overlay = `resources:
  - ../base
configMapGenerator:
  - name: registry-ca
    files:
      - present.txt
      - ca-bundle.crt=certs/ca.crt
`
	const withEnv = `resources:
  - ../base
secretGenerator:
  - name: site-pull
    env: pull.env
`
	const base = `resources:
  - idms.yaml
secretGenerator:
  - name: pull
    envs:
      - site.env
      - site.env.d
`
	const prefixes = `resources:
  - ../base
configMapGenerator:
  - name: ca
    files: [ca.crt, ca]
`
	const outside = `resources:
  - ../base
configMapGenerator:
  - name: ca
    files:
      - ../../outside.txt
`
	cases := []struct {
		name   string
		files  map[string]string
		failed string // the file kustomize names, relative to the tree
		at     string
		msg    string
	}{
		{"files", map[string]string{"site/kustomization.yaml": overlay, "site/present.txt": "x\n", "base/site.env": "a=b\n", "base/site.env.d": "c=d\n"},
			"site/certs/ca.crt", "site/kustomization.yaml:7:9",
			`configMapGenerator "registry-ca": files entry "certs/ca.crt" does not exist (site/certs/ca.crt), so kustomize cannot build this cluster and it is not checked: add the file, or correct the path (kustomize reads it relative to the kustomization's directory)`},
		{"base-envs", map[string]string{"site/kustomization.yaml": overlay, "site/present.txt": "x\n", "site/certs/ca.crt": "x\n", "base/site.env": "a=b\n"},
			"base/site.env.d", "base/kustomization.yaml:7:9",
			`secretGenerator "pull": envs entry "site.env.d" does not exist (base/site.env.d), so kustomize cannot build this cluster and it is not checked: add the file, or correct the path (kustomize reads it relative to the kustomization's directory)`},
		{"legacy-env", map[string]string{"site/kustomization.yaml": withEnv, "base/site.env": "a=b\n", "base/site.env.d": "c=d\n"},
			"site/pull.env", "site/kustomization.yaml:5:10",
			`secretGenerator "site-pull": env entry "pull.env" does not exist (site/pull.env), so kustomize cannot build this cluster and it is not checked: add the file, or correct the path (kustomize reads it relative to the kustomization's directory)`},
		{"prefix", map[string]string{"site/kustomization.yaml": prefixes, "site/ca.crt": "x\n", "base/site.env": "a=b\n", "base/site.env.d": "c=d\n"},
			"site/ca", "site/kustomization.yaml:5:21",
			`configMapGenerator "ca": files entry "ca" does not exist (site/ca), so kustomize cannot build this cluster and it is not checked: add the file, or correct the path (kustomize reads it relative to the kustomization's directory)`},
	}
	kustomize, err := filepath.Abs("../../bin/tools/kustomize")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			tc.files["base/kustomization.yaml"] = base
			tc.files["base/idms.yaml"] = testtree.ReleaseIDMS
			testtree.WriteAt(t, root, tc.files)
			site := filepath.Join(root, "site")

			out, err := exec.Command(kustomize, "build", site).CombinedOutput()
			if err == nil || !strings.Contains(string(out), "'"+filepath.Join(root, tc.failed)+"'") {
				t.Fatalf("kustomize build: %v\n%s", err, out)
			}

			p, ok := sourceProblemOf(t, root, site)
			if !ok {
				t.Fatal("not positioned")
			}
			if got := p.Pos.String(); got != tc.at || p.Message != tc.msg || p.Code != "kustomize-error" {
				t.Errorf("got  %s %s %s\nwant %s %s", got, p.Code, p.Message, tc.at, tc.msg)
			}
		})
	}

	// A file outside the tree: on its item, with no path of the machine in
	// the message.
	root := t.TempDir()
	tree := filepath.Join(root, "repo")
	testtree.WriteAt(t, tree, map[string]string{"site/kustomization.yaml": outside, "base/kustomization.yaml": base, "base/idms.yaml": testtree.ReleaseIDMS,
		"base/site.env": "a=b\n", "base/site.env.d": "c=d\n"})
	testtree.WriteAt(t, root, map[string]string{"outside.txt": "x\n"})
	p, ok := sourceProblemOf(t, tree, filepath.Join(tree, "site"))
	if !ok {
		t.Fatalf("outside file: not positioned: %s", p)
	}
	if p.Pos.String() != "site/kustomization.yaml:6:9" || strings.Contains(p.Message, root) || strings.Contains(p.Message, "\n") ||
		p.Message != `configMapGenerator "ca": files entry "../../outside.txt" is outside the repository; it is not read, so kustomize cannot build this cluster and it is not checked` {
		t.Errorf("outside file: %s %s", p.Pos, p.Message)
	}
}

// sourceProblemOf builds dir in the tree at root, reading only the tree,
// and positions its error.
func sourceProblemOf(t *testing.T, root, dir string) (manifest.Problem, bool) {
	t.Helper()
	g := kustomization.NewGraph()
	display := func(abs string) string {
		if rel, in := manifest.Within(root, abs); in {
			return filepath.ToSlash(rel)
		}
		return filepath.ToSlash(abs)
	}
	opts := manifest.Options{Access: safefs.New(0, root)}
	c := New(Config{Graph: g, Files: kustomization.NewResolver(opts, display), Load: opts})
	r := c.Get(dir)
	if r.Err == nil {
		t.Fatal("the build did not fail")
	}
	kusts, _ := g.Closure(dir)
	p, ok := c.ShapeProblem(r.Err, kusts)
	if !ok {
		p.Message = r.Err.Error()
	}
	return p, ok
}

// TestPatchFileMissing: a base's patch file that does not exist (one a
// build step writes, ignored by git) is reported on the base's patches
// entry, not on the overlay's resources entry that reaches the base; the
// real kustomize fails on the same file.
func TestPatchFileMissing(t *testing.T) {
	root := t.TempDir()
	testtree.WriteAt(t, root, map[string]string{
		"site/kustomization.yaml":    "resources:\n  - ../manager\n",
		"manager/kustomization.yaml": "resources:\n  - idms.yaml\npatches:\n- path: related-images/patch.yaml\n",
		"manager/idms.yaml":          testtree.ReleaseIDMS,
	})
	kustomize, err := filepath.Abs("../../bin/tools/kustomize")
	if err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(root, "site")
	out, err := exec.Command(kustomize, "build", site).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "failed to get the patch file from path(related-images/patch.yaml)") {
		t.Fatalf("kustomize build: %v\n%s", err, out)
	}
	p, ok := sourceProblemOf(t, root, site)
	const msg = `patches entry "related-images/patch.yaml" does not exist (manager/related-images/patch.yaml), so kustomize cannot build this cluster and it is not checked: add the file, or correct the path (kustomize reads it relative to the kustomization's directory); a patch a build step writes must exist before linting`
	if !ok || p.Pos.String() != "manager/kustomization.yaml:4:3" || p.Message != msg {
		t.Errorf("got %v %s %s\nwant manager/kustomization.yaml:4:3 %s", ok, p.Pos, p.Message, msg)
	}
}
