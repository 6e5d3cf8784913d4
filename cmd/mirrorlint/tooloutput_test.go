package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// toolProducer matches the SOURCE.txt producer of a real-world folder that
// is the untouched output of a standard mirroring tool.
var toolProducer = regexp.MustCompile("(?m)^producer: (oc-mirror v[12]|`oc adm [a-z]+ mirror`|openshift-install)")

// The standard tools' output lints quietly: no warning and no error by
// default, so `--fail-on warning` exits 0. The real-world folders of those
// producers are read from their SOURCE.txt; an output the cluster itself
// refuses (MCO's recorded outcome says so) is not quiet, and must not be.
func TestStandardToolOutputIsQuiet(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob(filepath.Join("testdata", "tooloutput", "*"))
	var real int
	if root := filepath.Join("..", "..", "..", "shared", "realworld"); dirExists(root) {
		all, _ := filepath.Glob(filepath.Join(root, "[0-9]*"))
		for _, d := range all {
			src, err := os.ReadFile(filepath.Join(d, "SOURCE.txt"))
			if err != nil || !toolProducer.Match(src) {
				continue
			}
			if strings.Contains(string(src), "cluster outcome (MCO's code): MCO refuses") {
				t.Logf("%s: the tool's output that MCO refuses (recorded outcome); it must fail, not pass quietly", d)
				if r := mlRun(t, "", "lint", "--config", "none", d); r.code != exitFindings {
					t.Errorf("%s: MCO refuses it, but lint exits %d", d, r.code)
				}
				continue
			}
			dirs = append(dirs, d)
			real++
		}
		if real < 10 {
			t.Errorf("only %d real-world tool-output folders found", real)
		}
	}
	for _, d := range dirs {
		if !dirExists(d) {
			continue
		}
		r := mlRun(t, "", "lint", "--config", "none", "--fail-on", "warning", d)
		if r.code != 0 {
			t.Errorf("%s: exit %d, want 0:\n%s%s", d, r.code, r.stdout, r.stderr)
		}
	}
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
