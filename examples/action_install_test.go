package examples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

type actionStep struct {
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
}

func actionSteps(t *testing.T) map[string]actionStep {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	steps := map[string]actionStep{}
	for _, s := range action.Runs.Steps {
		if s.ID != "" {
			steps[s.ID] = s
		}
		if s.Uses == "actions/setup-go@v5" && s.If != "steps.pick.outputs.mode == 'source'" {
			t.Errorf("setup-go runs for releases too: if %q", s.If)
		}
	}
	return steps
}

// The action installs the release its ref names (or the version input
// names), and builds from source only for a ref that is no release,
// saying which on the run.
func TestActionPicksReleaseOrSource(t *testing.T) {
	lookTool(t, "bash", "apt-get install -y bash")
	steps := actionSteps(t)
	pick, install, build := steps["pick"], steps["install"], steps["build"]
	if pick.Run == "" || install.Run == "" || build.Run == "" {
		t.Fatalf("action.yml needs the steps pick, install and build: %v", steps)
	}
	if install.If != "steps.pick.outputs.mode == 'release'" || build.If != "steps.pick.outputs.mode == 'source'" {
		t.Errorf("install if %q, build if %q", install.If, build.If)
	}
	for _, tc := range []struct{ ref, version, mode, want, notice string }{
		{"v1.2.3", "", "release", "v1.2.3", "installing the mirrorlint release v1.2.3"},
		{"v1.3.0-rc.1", "", "release", "v1.3.0-rc.1", "release v1.3.0-rc.1"},
		{"main", "", "source", "", "building mirrorlint from source at main"},
		{"v1", "", "source", "", "from source at v1"},
		{"0123456789abcdef0123456789abcdef01234567", "", "source", "", "from source at 0123456789abcdef"},
		{"0123456789abcdef0123456789abcdef01234567", "v1.2.3", "release", "v1.2.3", "release v1.2.3"},
		{"", "", "source", "", "from source at the local action"},
	} {
		runner := t.TempDir()
		out := filepath.Join(runner, "output")
		r := runIn(t, runner, []string{"ACTION_REF=" + tc.ref, "RELEASE_VERSION=" + tc.version, "GITHUB_OUTPUT=" + out}, "", "bash", "-e", "-c", pick.Run)
		got, _ := os.ReadFile(out)
		if r.code != 0 || !strings.Contains(string(got), "mode="+tc.mode+"\n") || !strings.Contains(string(got), "version="+tc.want+"\n") {
			t.Errorf("ref %q version %q: exit %d, outputs %q, want mode %s version %s", tc.ref, tc.version, r.code, got, tc.mode, tc.want)
		}
		if !strings.Contains(r.stdout, "::notice title=mirrorlint::") || !strings.Contains(r.stdout, tc.notice) {
			t.Errorf("ref %q: notice %q lacks %q", tc.ref, r.stdout, tc.notice)
		}
	}

	// The install step hands the version and the binary directory to
	// scripts/install.sh (tested against a served release in scripts/dist).
	action := t.TempDir()
	testtree.WriteAt(t, action, map[string]string{"scripts/install.sh": "printf '%s\\n' \"$@\" > \"$RUNNER_TEMP/args\"\n"})
	runner := t.TempDir()
	env := []string{"GITHUB_ACTION_PATH=" + action, "RUNNER_TEMP=" + runner, "RELEASE_VERSION=v1.2.3"}
	if r := runIn(t, runner, env, "", "bash", "-e", "-c", install.Run); r.code != 0 {
		t.Fatalf("install step: exit %d %s", r.code, r.stderr)
	}
	args, _ := os.ReadFile(filepath.Join(runner, "args"))
	if want := "-b\n" + filepath.Join(runner, "mirrorlint-bin") + "\nv1.2.3\n"; string(args) != want {
		t.Errorf("install.sh called with %q, want %q", args, want)
	}
}
