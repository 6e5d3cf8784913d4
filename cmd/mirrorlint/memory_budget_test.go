//go:build linux

package main

import (
	"fmt"
	"strings"
	"testing"
)

// tinyDocuments is a tree of files holding 10,000 one-line ConfigMaps
// each: 24 MB for 40 files, under the read budget (512 MiB) and the object
// budget (1,000,000), yet some 6 KB per object once decoded and kept.
func tinyDocuments(dir string, files int) map[string]string {
	out := map[string]string{}
	for f := range files {
		var b strings.Builder
		for i := range 10000 {
			fmt.Fprintf(&b, "---\nkind: ConfigMap\napiVersion: v1\nmetadata: {name: c%d-%d}\n", f, i)
		}
		out[fmt.Sprintf("%s/cm%02d.yaml", dir, f)] = b.String()
	}
	return out
}

// 400,000 tiny documents in a process limited to 2 GB of address space
// (of which a Go process reserves about 1.3 GB at start): without the
// load's memory budget the process died of it within a second (exit 2,
// "fatal error: out of memory", with about 230 MB of heap in use when the
// binary was built with cgo and glibc gave each thread an arena). With it
// the load stops at the budget the address space leaves, says where in one
// limit-exceeded error, and the run ends with exit 1; through a
// kustomization the build is refused the same way. A second run, with the
// cache the first one left, stops the same way (it died writing the pack).
func TestHostileTinyDocumentsUnderAddressSpaceLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		files map[string]string
		also  string // a second finding the run must make
	}{
		{"plain directory", tinyDocuments("clusters/x", 40), ""},
		{"kustomization", func() map[string]string {
			files := tinyDocuments("base", 40)
			k := "resources:\n"
			for f := range 40 {
				k += fmt.Sprintf("- cm%02d.yaml\n", f)
			}
			files["base/kustomization.yaml"] = k
			return files
		}(), "base/kustomization.yaml:1:1: error unreadable-manifest: kustomize build failed: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := tree(t, tc.files)
			cache := t.TempDir()
			for _, run := range []string{"cold", "warm"} {
				r := cliProcess(t, dir, "ulimit -v 2000000 && export MIRRORLINT_CACHE_DIR="+cache, "lint", "--config", "none", ".")
				if r.code != exitFindings {
					t.Fatalf("%s run: exit %d, want 1:\n%s%s", run, r.code, r.stdout, firstLines(r.stderr, 5))
				}
				if !strings.Contains(r.stdout, "error limit-exceeded: the run's memory budget (") || !strings.Contains(r.stdout, "lowered to fit ulimit -v) is spent") {
					t.Errorf("%s run: no limit-exceeded finding naming the lowered budget:\n%s", run, r.stdout)
				}
				if tc.also != "" && !strings.Contains(r.stdout, tc.also) {
					t.Errorf("%s run: missing %q:\n%s", run, tc.also, r.stdout)
				}
			}
		})
	}
}
