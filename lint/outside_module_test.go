package lint_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"github.com/mirrorlint/mirrorlint/lint"
)

// outsideMain is a program of another module, written the way an importer
// writes one: only lint and render, one Linter compiled once and asked
// three things with per-call options (the tree from its root, one cluster
// of it, a stream), and each rendered cluster's registries.conf written
// under -out.
const outsideMain = `package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/mirrorlint/mirrorlint/lint"
	"github.com/mirrorlint/mirrorlint/render"
)

func main() {
	version := flag.String("version", "", "OpenShift release")
	cluster := flag.String("cluster", "", "the cluster linted alone")
	stream := flag.String("stream", "", "a file linted as a stream")
	out := flag.String("out", "", "where each rendered cluster's registries.conf goes")
	flag.Parse()
	v, err := render.ParseVersion(*version)
	if err != nil {
		log.Fatal(err)
	}
	l, err := lint.New(lint.WithOpenShiftVersion(v.String()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	tree, err := l.Lint(ctx, []string{"."}, lint.RootDir("."))
	if err != nil {
		log.Fatal(err)
	}
	one, err := l.Lint(ctx, []string{"."}, lint.RootDir("."), lint.OnlyCluster(*cluster))
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Open(*stream)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	read, err := l.LintReader(ctx, "-", f)
	if err != nil {
		log.Fatal(err)
	}
	var refused []string
	for _, c := range tree.Clusters {
		var o *render.Output = c.Output
		var r *render.Refusal = c.Refusal
		if r != nil {
			refused = append(refused, c.Name)
			continue
		}
		dir := filepath.Join(*out, filepath.FromSlash(c.Name))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "registries.conf"), o.RegistriesConf, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]any{
		"tree": tree.Findings, "cluster": one.Findings, "stream": read.Findings, "refused": refused,
	}); err != nil {
		log.Fatal(err)
	}
}
`

// An outside module builds against the library with nothing but the
// module cache (GOPROXY=off), and its program reports what the command
// does: the findings of the tree, of one cluster and of a stream, and the
// registries.conf of each cluster MCO renders.
func TestOutsideModuleBuildsAndAgreesWithTheCommand(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a module and the command")
	}
	bin := cliBinary(t)
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	goMod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goSum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	// The outside module requires what the library requires, at the
	// repository's versions, as go mod tidy would write it: with them
	// listed the go command needs no go.mod of any other version, so the
	// build reads the module cache only.
	modFile, ok := bytes.CutPrefix(goMod, []byte("module github.com/mirrorlint/mirrorlint\n"))
	if !ok {
		t.Fatal("the repository's go.mod does not start with its module line")
	}
	mod := testtree.Write(t, map[string]string{
		"go.mod": "module example.com/outside\n" + string(modFile) +
			"\nrequire github.com/mirrorlint/mirrorlint v0.0.0\n\n" +
			"replace github.com/mirrorlint/mirrorlint => " + repo + "\n",
		// The repository's sums cover every module the library needs.
		"go.sum":  string(goSum),
		"main.go": outsideMain,
	})
	exe := filepath.Join(t.TempDir(), "outside")
	build := exec.Command("go", "build", "-o", exe, ".")
	build.Dir = mod
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the outside module: %v\n%s", err, out)
	}

	const eastIDMS = "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: a}\nspec:\n  imageDigestMirrors:\n  - {source: quay.io/Org/app, mirrors: [m.io/Org/app]}\n"
	tree := testtree.Write(t, map[string]string{
		"clusters/east/idms.yaml": eastIDMS, // MCO refuses the upper-case repository
		"clusters/west/idms.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: release}\nspec:\n  imageDigestMirrors:\n" +
			"  - source: quay.io/openshift-release-dev/ocp-release\n    mirrorSourcePolicy: NeverContactSource\n    mirrors: [mirror.example.com/ocp/release]\n" +
			"  - source: quay.io/acme/app\n    mirrors: [quay.io/acme/app]\n",
	})
	stream := filepath.Join(testtree.Write(t, map[string]string{"stream.yaml": eastIDMS}), "stream.yaml")
	libOut := t.TempDir()
	run := exec.Command(exe, "-version", "4.16", "-cluster", "clusters/west", "-stream", stream, "-out", libOut)
	run.Dir = tree
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		t.Fatalf("the outside program: %v\n%s", err, stderr.Bytes())
	}
	var lib struct {
		Tree, Cluster, Stream []lint.Finding
		Refused               []string
	}
	if err := json.Unmarshal(out, &lib); err != nil {
		t.Fatalf("the outside program's output: %v\n%s", err, out)
	}

	command := func(stdin string, args ...string) []lint.Finding {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"lint", "--format", "json", "--config", "none", "--openshift-version", "4.16"}, args...)...)
		cmd.Dir = tree
		cmd.Stdin = strings.NewReader(stdin)
		out, _ := cmd.Output() // exit 1: the tree has errors
		var res struct {
			Findings []lint.Finding `json:"findings"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("mirrorlint %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return res.Findings
	}
	for _, c := range []struct {
		what      string
		lib, want []lint.Finding
	}{
		{"the tree", lib.Tree, command("", ".")},
		{"one cluster", lib.Cluster, command("", "--cluster", "clusters/west", ".")},
		{"a stream", lib.Stream, command(eastIDMS, "-")},
	} {
		if len(c.want) == 0 {
			t.Errorf("%s: the command found nothing; the fixture is there for its findings", c.what)
		}
		if !reflect.DeepEqual(c.lib, c.want) {
			got, _ := json.MarshalIndent(c.lib, "", "  ")
			want, _ := json.MarshalIndent(c.want, "", "  ")
			t.Errorf("%s: the outside program's findings differ from the command's\noutside:\n%s\ncommand:\n%s", c.what, got, want)
		}
	}

	cliOut := t.TempDir()
	render := exec.Command(bin, "render", "--config", "none", "--openshift-version", "4.16", "-o", cliOut, ".")
	render.Dir = tree
	msg, _ := render.CombinedOutput() // exit 1: MCO refuses clusters/east
	if !strings.Contains(string(msg), "[cluster clusters/east]") || !reflect.DeepEqual(lib.Refused, []string{"clusters/east"}) {
		t.Errorf("refused clusters: outside program %q, command said:\n%s", lib.Refused, msg)
	}
	if got, want := registriesConfs(t, libOut), registriesConfs(t, cliOut); len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("registries.conf per cluster: outside program %v, command %v", keys(got), keys(want))
	}
}

// registriesConfs reads every registries.conf below dir by its path.
func registriesConfs(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "registries.conf" {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
