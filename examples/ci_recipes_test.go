package examples

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The GitLab, Tekton and Argo CD recipes of docs/integrations.md live here
// as files; no GitLab runner, Tekton or Argo CD is at hand, so each test
// runs the recipe's own command line the way its runner would.

func readYAML(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// binOnPath returns a PATH with mirrorlint (and kustomize, when found)
// first, as in the job or sidecar image.
func binOnPath(t *testing.T, kustomize string) string {
	dir := t.TempDir()
	copyFile(t, mirrorlintBinary(t), filepath.Join(dir, "mirrorlint"))
	if err := os.Chmod(filepath.Join(dir, "mirrorlint"), 0o755); err != nil {
		t.Fatal(err)
	}
	if kustomize != "" {
		if err := os.Symlink(kustomize, filepath.Join(dir, "kustomize")); err != nil {
			t.Fatal(err)
		}
	}
	return "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// The GitLab job's script, run by a shell as the runner does: exit 1 on a
// mistake, and the Code Quality file the artifact names holds it.
func TestGitLabJob(t *testing.T) {
	lookTool(t, "bash", "apt-get install -y bash")
	var jobs map[string]struct {
		Script    []string `yaml:"script"`
		Artifacts struct {
			When    string            `yaml:"when"`
			Reports map[string]string `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	readYAML(t, "gitlab-ci.yml", &jobs)
	job := jobs["mirrorlint"]
	report := job.Artifacts.Reports["codequality"]
	if len(job.Script) == 0 || report == "" || job.Artifacts.When != "always" {
		t.Fatalf("gitlab-ci.yml: job mirrorlint needs a script and artifacts.reports.codequality, when: always: %+v", job)
	}
	tree := t.TempDir()
	testtree.WriteAt(t, tree, map[string]string{"clusters/prod/idms.yaml": badIDMS, "clusters/stage/idms.yaml": goodIDMS})
	r := runIn(t, tree, []string{binOnPath(t, "")}, "", "bash", "-e", "-c", strings.Join(job.Script, "\n"))
	if r.code != 1 || !strings.Contains(r.stdout, "clusters/prod/idms.yaml:8:13: error source-format") {
		t.Errorf("job script: exit %d, want 1 with the finding\n%s%s", r.code, r.stdout, r.stderr)
	}
	raw, err := os.ReadFile(filepath.Join(tree, report))
	if err != nil {
		t.Fatalf("the job did not write %s: %v", report, err)
	}
	var issues []struct {
		CheckName string `json:"check_name"`
		Location  struct {
			Path  string `json:"path"`
			Lines struct {
				Begin int `json:"begin"`
			} `json:"lines"`
		} `json:"location"`
	}
	if err := json.Unmarshal(raw, &issues); err != nil || len(issues) == 0 {
		t.Fatalf("%s: %v\n%s", report, err, raw)
	}
	if i := issues[0]; i.CheckName != "source-format" || i.Location.Path != "clusters/prod/idms.yaml" || i.Location.Lines.Begin != 8 {
		t.Errorf("code quality issue %+v", i)
	}
}

// The Tekton step, run with the image, its command and args (parameters
// at their defaults), the workspace mounted read-only where Tekton puts it,
// as non-root with a read-only root file system.
func TestTektonTask(t *testing.T) {
	var task struct {
		Spec struct {
			Params []struct {
				Name    string `yaml:"name"`
				Default any    `yaml:"default"`
			} `yaml:"params"`
			Steps []struct {
				Image      string   `yaml:"image"`
				WorkingDir string   `yaml:"workingDir"`
				Command    []string `yaml:"command"`
				Args       []string `yaml:"args"`
			} `yaml:"steps"`
		} `yaml:"spec"`
	}
	readYAML(t, "tekton-task.yaml", &task)
	if len(task.Spec.Steps) != 1 || len(task.Spec.Steps[0].Command) != 1 {
		t.Fatalf("tekton-task.yaml: want one step with a command: %+v", task.Spec)
	}
	step := task.Spec.Steps[0]
	if !strings.HasPrefix(step.Image, "ghcr.io/mirrorlint/mirrorlint:") {
		t.Errorf("step image %s", step.Image)
	}
	const workspace = "/workspace/source"
	var args []string
	for _, a := range step.Args {
		a = strings.ReplaceAll(a, "$(workspaces.source.path)", workspace)
		expanded := false
		for _, p := range task.Spec.Params {
			switch d := p.Default.(type) {
			case string:
				a = strings.ReplaceAll(a, "$(params."+p.Name+")", d)
			case []any:
				if a == "$(params."+p.Name+"[*])" {
					for _, v := range d {
						args = append(args, v.(string))
					}
					expanded = true
				}
			}
		}
		if !expanded {
			args = append(args, a)
		}
	}
	env := image(t)
	docker := filepath.Join(containerEngine(t), "docker")
	tree := t.TempDir()
	testtree.WriteAt(t, tree, map[string]string{"clusters/prod/idms.yaml": badIDMS})
	if err := os.Chmod(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	run := append([]string{"run", "--rm", "--network", "none", "--read-only", "--user", "65534",
		"-v", tree + ":" + workspace + ":ro", "--workdir", strings.ReplaceAll(step.WorkingDir, "$(workspaces.source.path)", workspace),
		"--entrypoint", step.Command[0], testImage}, args...)
	r := runIn(t, tree, env, "", docker, run...)
	if r.code != 1 || !strings.Contains(r.stdout, "clusters/prod/idms.yaml:8:13: error source-format") {
		t.Errorf("tekton step %v: exit %d, want 1 with the finding\n%s%s", run, r.code, r.stdout, r.stderr)
	}
}

// The Argo CD plugin's generate command, run in an application directory
// as the repo-server sidecar does: a mistake fails it with the finding on
// stderr; a good tree generates exactly what kustomize builds.
func TestArgoCDPlugin(t *testing.T) {
	kustomize := lookTool(t, "kustomize", "go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2")
	var cmp struct {
		Kind string `yaml:"kind"`
		Spec struct {
			Generate struct {
				Command []string `yaml:"command"`
				Args    []string `yaml:"args"`
			} `yaml:"generate"`
			Discover struct {
				FileName string `yaml:"fileName"`
			} `yaml:"discover"`
		} `yaml:"spec"`
	}
	readYAML(t, "argocd-cmp.yaml", &cmp)
	if cmp.Kind != "ConfigManagementPlugin" || len(cmp.Spec.Generate.Command) == 0 || cmp.Spec.Discover.FileName != "kustomization.yaml" {
		t.Fatalf("argocd-cmp.yaml: %+v", cmp)
	}
	gen := append(append([]string{}, cmp.Spec.Generate.Command...), cmp.Spec.Generate.Args...)
	path := binOnPath(t, kustomize)
	app := func(idms string) string {
		dir := t.TempDir()
		testtree.WriteAt(t, dir, map[string]string{"kustomization.yaml": "resources: [idms.yaml]\n", "idms.yaml": idms})
		return dir
	}
	bad := runIn(t, app(badIDMS), []string{path}, "", gen[0], gen[1:]...)
	if bad.code == 0 || !strings.Contains(bad.stderr, "idms.yaml:8:13: error source-format") || bad.stdout != "" {
		t.Errorf("bad application: exit %d, stdout %q\n%s", bad.code, bad.stdout, bad.stderr)
	}
	dir := app(goodIDMS)
	good := runIn(t, dir, []string{path}, "", gen[0], gen[1:]...)
	plain := runIn(t, dir, nil, "", kustomize, "build", ".")
	if good.code != 0 || good.stdout != plain.stdout || plain.stdout == "" {
		t.Errorf("good application: exit %d\n--- generated\n%s\n--- kustomize build\n%s\n%s", good.code, good.stdout, plain.stdout, good.stderr)
	}
}
