package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// mlResult is one CLI run.
type mlResult struct {
	code           int
	stdout, stderr string
}

// mlRun runs the command line in-process, as the binary would.
func mlRun(t *testing.T, stdin string, args ...string) mlResult {
	t.Helper()
	var out, errb bytes.Buffer
	var in io.Reader = strings.NewReader(stdin)
	code := runOneAtATime(append([]string{"mirrorlint"}, args...), in, &out, &errb)
	return mlResult{code, out.String(), errb.String()}
}

// runMu lets one in-process run happen at a time: urfave/cli v2 writes
// package-level values on every App.Run (its HelpFlag's default, the help
// command's name), so two runs at once are a data race. Parallel tests
// still overlap everything around their runs (trees, git, subprocesses).
var runMu sync.Mutex

func runOneAtATime(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	runMu.Lock()
	defer runMu.Unlock()
	return run(args, stdin, stdout, stderr)
}

// sharedDir returns ../shared relative to the repository, or skips.
func sharedDir(t *testing.T, sub string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", sub))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s not present (it sits beside the repository on the team's machines): %v", dir, err)
	}
	return dir
}

func TestUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"render", "--no-such-flag", "."},
		{"render", "--openshift-version", "3.11", "."},
		{"render", "/definitely/not/here"},
		{"lint", "--fail-on", "sometimes", "."},
		{"lint", "--format", "yaml", "."},
		{"rules", "no-such-rule"},
		{"no-such-command"},
		{"lint", "../../testdata/examples/disconnected", "--format", "json"},
		{"lint", "--formt", "json", "."},
		{},
	} {
		r := mlRun(t, "", args...)
		if r.code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, r.code, exitUsage, r.stderr)
		}
		if r.stderr == "" {
			t.Errorf("%v: no message on stderr", args)
		}
	}
}

func TestHelpTeaches(t *testing.T) {
	t.Parallel()
	r := mlRun(t, "", "render", "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "empty spec") || !strings.Contains(r.stdout, "Exit codes") {
		t.Fatalf("render --help must explain the missing-Image default and the exit codes:\n%s", r.stdout)
	}
}

func TestUsageMessagesSayWhatToDo(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		"flags go before the paths": {"lint", "../../testdata/examples/disconnected", "--format", "json"},
		"did you mean --format":     {"lint", "--formt", "json", "."},
		`unknown command "lnt"`:     {"lnt", "."},
		"no command given":          {},
	}
	for want, args := range cases {
		if r := mlRun(t, "", args...); !strings.Contains(r.stderr, want) {
			t.Errorf("%v: stderr %q lacks %q", args, r.stderr, want)
		}
	}
}

func TestWarnsWhenNothingWasRead(t *testing.T) {
	t.Parallel()
	r := mlRun(t, "", "lint", "--config", "none", t.TempDir())
	if r.code != exitOK || !strings.Contains(r.stderr, "no YAML or JSON files found") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// Function runners exec the function without arguments, a ResourceList on
// stdin: mirrorlint then acts as `mirrorlint fn`.
func TestNoArgumentsWithPipedResourceListActsAsFn(t *testing.T) {
	t.Parallel()
	rl := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: config.openshift.io/v1
  kind: ImageDigestMirrorSet
  metadata: {name: a}
  spec:
    imageDigestMirrors:
    - {source: quay.io/Org/app, mirrors: [m.io/org/app]}
`
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.WriteString(rl); w.Close() }()
	defer r.Close()
	var out, errb bytes.Buffer
	code := runOneAtATime([]string{"mirrorlint"}, r, &out, &errb)
	if code != exitFindings || !strings.Contains(errb.String(), "repository-lowercase") || !strings.Contains(out.String(), "kind: ResourceList") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out.String(), errb.String())
	}
}

func TestModuleVersion(t *testing.T) {
	t.Parallel()
	installed := &debug.BuildInfo{Main: debug.Module{Path: "github.com/mirrorlint/mirrorlint", Version: "v1.2.3"}}
	checkout := &debug.BuildInfo{Main: debug.Module{Path: "github.com/mirrorlint/mirrorlint", Version: "(devel)"}}
	for _, tc := range []struct {
		ldflags string
		bi      *debug.BuildInfo
		want    string
	}{
		{"dev", installed, "v1.2.3"}, // go install …@v1.2.3
		{"dev", checkout, "dev"},     // go build in a clone
		{"dev", nil, "dev"},
		{"v9.9.9", installed, "v9.9.9"}, // -ldflags -X main.version wins
	} {
		if got := moduleVersion(tc.ldflags, tc.bi); got != tc.want {
			t.Errorf("moduleVersion(%q, %v) = %q, want %q", tc.ldflags, tc.bi != nil, got, tc.want)
		}
	}
	r := mlRun(t, "", "--version")
	if r.code != 0 || !strings.Contains(r.stdout, "mirrorlint version "+version) {
		t.Errorf("--version: exit %d, %q", r.code, r.stdout)
	}
}
