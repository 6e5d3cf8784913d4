// Package examples holds the integration examples (GitHub workflow,
// kustomize overlay) and the tests that drive each integration with its real
// client: kustomize, pre-commit, actionlint and action-validator. A missing
// client skips its test with a message; CI installs them (see
// scripts/check-integrations.sh).
package examples

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/testbin"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const goodIDMS = `# release mirrors
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: release-mirrors
spec:
  imageDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - mirror.example.com/ocp/release
`

// badIDMS has a tag in the source: the API server refuses it (source-format),
// on line 8, column 13.
var badIDMS = strings.Replace(goodIDMS, "ocp-release\n", "ocp-release:4.16.0\n", 1)

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
	removeContainerStorage()
	os.Exit(code)
}

// mirrorlintBinary is the command, linked once for all tests.
func mirrorlintBinary(t *testing.T) string {
	t.Helper()
	return testbin.Mirrorlint(t)
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// lookTool finds a client on PATH, or where `go install` puts it.
func lookTool(t *testing.T, name, install string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	// scripts/check-integrations.sh sets this so that CI cannot pass by
	// skipping the very tests it is meant to run.
	if os.Getenv("MIRRORLINT_REQUIRE_CLIENTS") != "" {
		t.Fatalf("%s not found and MIRRORLINT_REQUIRE_CLIENTS is set: install it with `%s`", name, install)
	}
	t.Skipf("%s not found: install it with `%s` (CI does, see scripts/check-integrations.sh)", name, install)
	return ""
}

type result struct {
	stdout, stderr string
	code           int
}

func runIn(t *testing.T, dir string, env []string, stdin string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		code = ee.ExitCode()
	}
	return result{out.String(), errb.String(), code}
}

// --- kustomize -------------------------------------------------------------

func kustomizeTree(t *testing.T, bin, idms string) string {
	dir := t.TempDir()
	testtree.WriteAt(t, dir, map[string]string{
		"base/idms.yaml":          idms,
		"base/kustomization.yaml": "resources: [idms.yaml]\n",
		// The same overlay with and without the function.
		"plain/kustomization.yaml": "resources: [../base]\nbuildMetadata: [originAnnotations]\n",
		"linted/kustomization.yaml": "resources: [../base]\nbuildMetadata: [originAnnotations]\n" +
			"transformers: [mirrorlint.yaml]\n",
		"linted/mirrorlint.yaml": `apiVersion: mirrorlint.io/v1alpha1
kind: MirrorLint
metadata:
  name: mirrorlint
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ` + bin + `
        args: [fn]
spec:
  failOn: error
`,
	})
	return dir
}

func TestKustomizeKRMFunction(t *testing.T) {
	kustomize := lookTool(t, "kustomize", "go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2")
	bin := mirrorlintBinary(t)

	t.Run("bad IDMS fails the build", func(t *testing.T) {
		dir := kustomizeTree(t, bin, badIDMS)
		r := runIn(t, dir, nil, "", kustomize, "build", "--enable-alpha-plugins", "--enable-exec", "linted")
		if r.code == 0 {
			t.Fatalf("kustomize build passed a bad IDMS:\n%s", r.stdout)
		}
		// kustomize shows only the function's stderr: the finding must be
		// there, positioned in the source file through the origin annotation.
		if !strings.Contains(r.stderr, "source-format") || !strings.Contains(r.stderr, "base/idms.yaml:8:13: error") {
			t.Errorf("stderr lacks the positioned finding:\n%s", r.stderr)
		}
	})

	t.Run("good IDMS passes unchanged", func(t *testing.T) {
		dir := kustomizeTree(t, bin, goodIDMS)
		linted := runIn(t, dir, nil, "", kustomize, "build", "--enable-alpha-plugins", "--enable-exec", "linted")
		if linted.code != 0 {
			t.Fatalf("kustomize build failed on a good IDMS (exit %d):\n%s", linted.code, linted.stderr)
		}
		plain := runIn(t, dir, nil, "", kustomize, "build", "plain")
		if plain.code != 0 {
			t.Fatalf("plain build failed: %s", plain.stderr)
		}
		if linted.stdout != plain.stdout {
			t.Errorf("the function changed the output:\n--- with\n%s\n--- without\n%s", linted.stdout, plain.stdout)
		}
	})

	t.Run("without --enable-exec kustomize skips the function", func(t *testing.T) {
		// The README warns about this; the test keeps the warning true.
		dir := kustomizeTree(t, bin, badIDMS)
		r := runIn(t, dir, nil, "", kustomize, "build", "--enable-alpha-plugins", "linted")
		if r.code != 0 {
			t.Skipf("this kustomize no longer skips exec functions silently (exit %d): update the README", r.code)
		}
	})
}

// `kustomize fn run` writes every resource back to its file, reformatted:
// the README recommends --dry-run, which prints them instead. The test
// keeps both halves of that advice true: with --dry-run the user's file is
// untouched and the findings still fail the run; without it kustomize
// rewrites the file.
func TestKustomizeFnRunDryRun(t *testing.T) {
	kustomize := lookTool(t, "kustomize", "go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2")
	bin := mirrorlintBinary(t)
	// Flow style and two spaces before a comment: kyaml writes both back
	// differently.
	styled := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: release-mirrors}\nspec:\n  imageDigestMirrors:\n" +
		"  - source: quay.io/openshift-release-dev/ocp-release\n    mirrors: [mirror.example.com/ocp/release]   # primary\n"
	dir := t.TempDir()
	testtree.WriteAt(t, dir, map[string]string{"idms.yaml": styled})
	args := []string{"fn", "run", ".", "--enable-exec", "--exec-path", bin, "--dry-run", "--", "failOn=warning"}
	r := runIn(t, dir, nil, "", kustomize, args...)
	if got, _ := os.ReadFile(filepath.Join(dir, "idms.yaml")); r.code != 0 || string(got) != styled {
		t.Errorf("--dry-run: exit %d, file changed: %v\n%s", r.code, string(got) != styled, r.stderr)
	}
	testtree.WriteAt(t, dir, map[string]string{"bad.yaml": strings.Replace(badIDMS, "release-mirrors", "bad", 1)})
	r = runIn(t, dir, nil, "", kustomize, args...)
	if r.code == 0 || !strings.Contains(r.stderr, "bad.yaml:8:13: error source-format") {
		t.Errorf("--dry-run with a bad file: exit %d\n%s", r.code, r.stderr)
	}
	if err := os.Remove(filepath.Join(dir, "bad.yaml")); err != nil {
		t.Fatal(err)
	}
	r = runIn(t, dir, nil, "", kustomize, "fn", "run", ".", "--enable-exec", "--exec-path", bin)
	if got, _ := os.ReadFile(filepath.Join(dir, "idms.yaml")); r.code != 0 || string(got) == styled {
		t.Skipf("this kustomize no longer rewrites files on fn run (exit %d): the README's --dry-run advice can be relaxed", r.code)
	}
}

func TestKustomizeBuildPipedToLint(t *testing.T) {
	kustomize := lookTool(t, "kustomize", "go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2")
	bin := mirrorlintBinary(t)
	dir := kustomizeTree(t, bin, badIDMS)
	built := runIn(t, dir, nil, "", kustomize, "build", "plain")
	if built.code != 0 {
		t.Fatal(built.stderr)
	}
	// Origin paths are relative to plain/; lint finds the overlay by itself.
	r := runIn(t, dir, nil, built.stdout, bin, "lint", "--format", "github", "-")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "::error file=base/idms.yaml,line=8,") {
		t.Errorf("annotation not mapped back to base/idms.yaml:\n%s", r.stdout)
	}
}

// --- pre-commit ------------------------------------------------------------

// hookRepo commits the project's working tree (tracked and untracked,
// not ignored) into a throwaway git repository: pre-commit installs hooks
// from a commit, and a clone of the real repository would miss uncommitted
// work.
func hookRepo(t *testing.T) (dir, sha string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	list := runIn(t, root, nil, "", "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if list.code != 0 {
		t.Skipf("the project is not a git checkout: %s", list.stderr)
	}
	dir = t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(list.stdout, "\x00"), "\x00") {
		src := filepath.Join(root, name)
		st, err := os.Lstat(src)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the working tree, or a symlink
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, st.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "snapshot for the pre-commit test")
	return dir, strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	args = append([]string{"-c", "user.name=mirrorlint test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)
	r := runIn(t, dir, nil, "", "git", args...)
	if r.code != 0 {
		t.Fatalf("git %v: %s", args, r.stderr)
	}
	return r.stdout
}

func TestPreCommitHook(t *testing.T) {
	lookTool(t, "git", "apt-get install -y git")
	preCommit := lookTool(t, "pre-commit", "apt-get install -y pre-commit")
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("language: golang needs go on PATH")
	}
	hooks, sha := hookRepo(t)

	work := t.TempDir()
	git(t, work, "init", "-q")
	testtree.WriteAt(t, work, map[string]string{
		".pre-commit-config.yaml": "repos:\n- repo: " + hooks + "\n  rev: " + sha + "\n  hooks:\n  - id: mirrorlint\n",
		"clusters/good.yaml":      goodIDMS,
		"clusters/bad.yaml":       strings.Replace(badIDMS, "release-mirrors", "other-mirrors", 1),
		"clusters/notes.json":     `{"not": "a manifest"}`,
	})
	git(t, work, "add", "-A")

	// A private pre-commit home, with the user's Go caches so the hook's
	// `go install ./...` does not download or compile everything again.
	env := []string{"PRE_COMMIT_HOME=" + filepath.Join(t.TempDir(), "pre-commit"), "GOFLAGS=-mod=mod"}
	for _, v := range []string{"GOMODCACHE", "GOCACHE"} {
		if out, err := exec.Command("go", "env", v).Output(); err == nil {
			env = append(env, v+"="+strings.TrimSpace(string(out)))
		}
	}

	all := runIn(t, work, env, "", preCommit, "run", "--all-files")
	if all.code != 1 {
		t.Fatalf("pre-commit run --all-files: exit %d, want 1\n%s%s", all.code, all.stdout, all.stderr)
	}
	if !strings.Contains(all.stdout, "source-format") || !strings.Contains(all.stdout, "clusters/bad.yaml:8:13") {
		t.Errorf("pre-commit output lacks the finding:\n%s", all.stdout)
	}

	// Only the passed files are reported on, though the whole repository is
	// loaded: committing good.yaml alone passes.
	one := runIn(t, work, env, "", preCommit, "run", "--files", "clusters/good.yaml")
	if one.code != 0 {
		t.Errorf("pre-commit run --files clusters/good.yaml: exit %d, want 0\n%s%s", one.code, one.stdout, one.stderr)
	}

	testtree.WriteAt(t, work, map[string]string{"clusters/bad.yaml": strings.Replace(goodIDMS, "release-mirrors", "other-mirrors", 1)})
	git(t, work, "add", "-A")
	fixed := runIn(t, work, env, "", preCommit, "run", "--all-files")
	if fixed.code != 0 {
		t.Errorf("pre-commit on good manifests: exit %d, want 0\n%s%s", fixed.code, fixed.stdout, fixed.stderr)
	}

	// An untracked scratch file that contradicts good.yaml (another
	// mirrorSourcePolicy for its source) is not part of the commit: it
	// does not block it.
	testtree.WriteAt(t, work, map[string]string{"clusters/scratch.yaml": strings.Replace(goodIDMS, "release-mirrors", "scratch", 1) + "    mirrorSourcePolicy: NeverContactSource\n"})
	scratch := runIn(t, work, env, "", preCommit, "run", "--files", "clusters/good.yaml")
	if scratch.code != 0 || strings.Contains(scratch.stdout, "scratch.yaml") {
		t.Errorf("an untracked scratch file blocked the commit: exit %d\n%s%s", scratch.code, scratch.stdout, scratch.stderr)
	}
	git(t, work, "add", "clusters/scratch.yaml")
	staged := runIn(t, work, env, "", preCommit, "run", "--files", "clusters/good.yaml", "clusters/scratch.yaml")
	if staged.code != 1 || !strings.Contains(staged.stdout, "conflicting-source-policy") {
		t.Errorf("committing the contradiction: exit %d, want 1\n%s%s", staged.code, staged.stdout, staged.stderr)
	}
}

// --- GitHub Actions --------------------------------------------------------

func TestWorkflowActionlint(t *testing.T) {
	actionlint := lookTool(t, "actionlint", "go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12")
	// actionlint wants the .github/workflows layout, and resolves `uses: ./`
	// against the repository root, where it checks the inputs given against
	// action.yml.
	dir := t.TempDir()
	copyFile(t, "github-workflow.yml", filepath.Join(dir, ".github", "workflows", "mirrorlint.yml"))
	copyFile(t, "github-matrix-workflow.yml", filepath.Join(dir, ".github", "workflows", "mirrorlint-fleet.yml"))
	copyFile(t, filepath.Join("..", "action.yml"), filepath.Join(dir, "action.yml"))
	// The project's own workflows (CI, release) too.
	own, err := filepath.Glob(filepath.Join("..", ".github", "workflows", "*.yml"))
	if err != nil || len(own) < 2 {
		t.Fatalf("the project's workflows: %v %v", own, err)
	}
	for _, f := range own {
		copyFile(t, f, filepath.Join(dir, ".github", "workflows", "project-"+filepath.Base(f)))
	}
	git(t, dir, "init", "-q")
	r := runIn(t, dir, nil, "", actionlint, "-no-color")
	if r.code != 0 {
		t.Errorf("actionlint:\n%s%s", r.stdout, r.stderr)
	}
}

func TestActionSchema(t *testing.T) {
	npx := lookTool(t, "npx", "apt-get install -y nodejs npm")
	root, _ := filepath.Abs("..")
	r := runIn(t, root, nil, "", npx, "--yes", "@action-validator/cli@0.6.0", "action.yml")
	if r.code != 0 {
		if strings.Contains(r.stderr, "ENOTFOUND") || strings.Contains(r.stderr, "EAI_AGAIN") {
			t.Skipf("npm registry unreachable: %s", r.stderr)
		}
		t.Errorf("action-validator action.yml: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestActionRunStep runs the action's lint step script the way the runner
// would, with the inputs in the environment: actionlint and the schema check
// read the script but never execute it.
func TestActionRunStep(t *testing.T) {
	script, runner := actionLintStep(t)
	work := t.TempDir()
	testtree.WriteAt(t, work, map[string]string{"clusters/a/idms.yaml": badIDMS, "clusters/b/idms.yaml": strings.Replace(goodIDMS, "release-mirrors", "b", 1)})
	env := actionEnv(runner, "MIRRORLINT_PATHS=clusters/a\nclusters/b")
	if err := os.MkdirAll(filepath.Join(work, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, work, env, "", "bash", "-e", "-c", script)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "::error file=clusters/a/idms.yaml,line=8,endLine=8,col=13,") {
		t.Errorf("no annotation:\n%s", r.stdout)
	}
	var sarif map[string]any
	raw, err := os.ReadFile(filepath.Join(work, "out", "mirrorlint.sarif"))
	if err != nil || json.Unmarshal(raw, &sarif) != nil || sarif["version"] != "2.1.0" {
		t.Errorf("SARIF not written: %v\n%s", err, raw)
	}
	if out, _ := os.ReadFile(filepath.Join(runner, "output")); !strings.Contains(string(out), "sarif=out/mirrorlint.sarif") {
		t.Errorf("step output: %q", out)
	}
	if sum, _ := os.ReadFile(filepath.Join(runner, "summary.md")); !strings.Contains(string(sum), "## mirrorlint") {
		t.Errorf("job summary not written: %q", sum)
	}
}

// The action's base input runs the drain check against the pull request's
// base: a removed mirror becomes a drain-on-change annotation. In a shallow
// checkout (actions/checkout's default) the base commit is missing: the
// step says so, as an annotation naming fetch-depth: 0, and fails.
func TestActionRunStepBase(t *testing.T) {
	lookTool(t, "git", "apt-get install -y git")
	script, runner := actionLintStep(t)
	origin := t.TempDir()
	testtree.WriteAt(t, origin, map[string]string{"clusters/prod/idms.yaml": strings.Replace(goodIDMS, "    - mirror.example.com/ocp/release\n",
		"    - mirror.example.com/ocp/release\n    - mirror2.example.com/ocp/release\n", 1)})
	git(t, origin, "init", "-q")
	git(t, origin, "add", "-A")
	git(t, origin, "commit", "-q", "-m", "two mirrors")
	base := strings.TrimSpace(git(t, origin, "rev-parse", "HEAD"))
	testtree.WriteAt(t, origin, map[string]string{"clusters/prod/idms.yaml": goodIDMS})
	git(t, origin, "commit", "-q", "-am", "drop a mirror")

	full := t.TempDir()
	git(t, full, "clone", "-q", "file://"+origin, ".")
	sarif := "MIRRORLINT_SARIF=" + filepath.Join(runner, "out", "base.sarif")
	r := runIn(t, full, actionEnv(runner, "MIRRORLINT_PATHS=clusters", "MIRRORLINT_BASE="+base, sarif), "", "bash", "-e", "-c", script)
	if r.code != 0 || !strings.Contains(r.stdout, "::warning file=clusters/prod/idms.yaml,line=10,") || !strings.Contains(r.stdout, "title=drain-on-change [cluster clusters/prod]::nodes drain") {
		t.Errorf("full clone: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	shallow := t.TempDir()
	git(t, shallow, "clone", "-q", "--depth=1", "file://"+origin, ".")
	r = runIn(t, shallow, actionEnv(runner, "MIRRORLINT_PATHS=clusters", "MIRRORLINT_BASE="+base, sarif), "", "bash", "-e", "-c", script)
	if r.code != 2 || !strings.Contains(r.stdout, "::error title=mirrorlint base::the base revision "+base+" is not in this shallow checkout") || !strings.Contains(r.stdout, "fetch-depth: 0") {
		t.Errorf("shallow clone: exit %d, want 2 with an annotation naming fetch-depth: 0\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// actionEnv is the environment the runner gives the lint step: every
// input, empty unless set in extra ("NAME=value").
func actionEnv(runner string, extra ...string) []string {
	env := []string{
		"RUNNER_TEMP=" + runner,
		"GITHUB_OUTPUT=" + filepath.Join(runner, "output"),
		"GITHUB_STEP_SUMMARY=" + filepath.Join(runner, "summary.md"),
		"MIRRORLINT_PATHS=.",
		"MIRRORLINT_CONFIG=", "MIRRORLINT_POLICY=", "MIRRORLINT_RELEASE_IMAGE=",
		"MIRRORLINT_OPENSHIFT_VERSION=4.16",
		"MIRRORLINT_FAIL_ON=error",
		"MIRRORLINT_SARIF=out/mirrorlint.sarif",
		"MIRRORLINT_BASE=", "MIRRORLINT_SHARD=", "MIRRORLINT_CLUSTER=",
	}
	return append(env, extra...) // later entries win
}

// actionLintStep returns the action's lint step script and a runner
// temporary directory holding the mirrorlint binary where the build step
// puts it.
func actionLintStep(t *testing.T) (script, runner string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	bin := mirrorlintBinary(t)
	data, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Steps []struct {
				ID    string            `yaml:"id"`
				Shell string            `yaml:"shell"`
				Run   string            `yaml:"run"`
				Env   map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	for _, s := range action.Runs.Steps {
		if s.ID == "lint" {
			script = s.Run
		}
		if s.Run != "" && s.Shell == "" {
			t.Errorf("a run step without shell: %q", s.Run)
		}
	}
	if script == "" {
		t.Fatal("no step with id lint in action.yml")
	}

	runner = t.TempDir()
	if err := os.MkdirAll(filepath.Join(runner, "mirrorlint-bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, bin, filepath.Join(runner, "mirrorlint-bin", "mirrorlint"))
	if err := os.Chmod(filepath.Join(runner, "mirrorlint-bin", "mirrorlint"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(runner, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, runner
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
