package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

type shardFinding struct {
	Rule     string   `json:"rule"`
	Severity string   `json:"severity"`
	Message  string   `json:"message"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Clusters []string `json:"clusters"`
}

// perCluster lints with args and returns every finding once per cluster it
// concerns: a finding on a shared base is one finding listing its clusters
// in a full run, and one per shard in sharded runs.
func perCluster(t *testing.T, args ...string) []string {
	t.Helper()
	r := mlRun(t, "", append([]string{"lint", "--config", "none", "--format", "json"}, args...)...)
	if r.code == exitUsage {
		t.Fatalf("lint %v: exit 2\n%s", args, r.stderr)
	}
	var doc struct {
		Findings []shardFinding `json:"findings"`
	}
	mustUnmarshal(t, r.stdout, &doc)
	var out []string
	for _, f := range doc.Findings {
		clusters := f.Clusters
		if len(clusters) == 0 {
			clusters = []string{""}
		}
		for _, c := range clusters {
			out = append(out, fmt.Sprintf("%s %s %s:%d:%d %s [%s]", f.Severity, f.Rule, f.File, f.Line, f.Column, f.Message, c))
		}
	}
	sort.Strings(out)
	return out
}

// The three shards of a matrix together report exactly what one run
// reports, on a fleet with findings on the shared base and on single sites,
// and each shard lints a part of the clusters (none twice).
func TestShardsUnionIsTheFullRun(t *testing.T) {
	t.Chdir(testtree.Write(t, fleetFiles(12)))
	full := perCluster(t, ".")
	if len(full) < 20 {
		t.Fatalf("the fixture should give findings on the base and on sites: %d", len(full))
	}
	var union []string
	seen := map[string]int{}
	for k := 1; k <= 3; k++ {
		part := perCluster(t, "--shard", fmt.Sprintf("%d/3", k), ".")
		if len(part) == 0 || len(part) == len(full) {
			t.Errorf("shard %d/3 reports %d of %d findings: not a part", k, len(part), len(full))
		}
		for _, f := range part {
			seen[f]++
		}
		union = append(union, part...)
	}
	sort.Strings(union)
	if strings.Join(union, "\n") != strings.Join(full, "\n") {
		t.Errorf("the shards' union differs from the full run:\n--- full\n%s\n--- union\n%s", strings.Join(full, "\n"), strings.Join(union, "\n"))
	}
	for f, n := range seen {
		if n > 1 {
			t.Errorf("reported by %d shards: %s", n, f)
		}
	}
}

// render and clusters take the same shard as lint; diff shards the pairs
// by the new tree's cluster names.
func TestShardSelectsTheSameClustersEverywhere(t *testing.T) {
	dir := testtree.Write(t, fleetFiles(9))
	t.Chdir(dir)
	all := map[string]int{}
	for k := 1; k <= 3; k++ {
		shard := fmt.Sprintf("%d/3", k)
		var listed struct {
			Clusters []struct{ Name string } `json:"clusters"`
		}
		mustUnmarshal(t, mlRun(t, "", "clusters", "--config", "none", "--format", "json", "--shard", shard, ".").stdout, &listed)
		var names []string
		for _, c := range listed.Clusters {
			names = append(names, c.Name)
			all[c.Name]++
		}

		out := filepath.Join(t.TempDir(), "out")
		mlRun(t, "", "render", "--config", "none", "--shard", shard, "-o", out, ".")
		var rendered []string
		for _, n := range names {
			if _, err := os.Stat(filepath.Join(out, n, "registries.conf")); err == nil {
				rendered = append(rendered, n)
			}
		}
		entries, _ := os.ReadDir(filepath.Join(out, "sites"))
		// Every third site is refused by MCO (an upper-case source): no file.
		if len(entries) != len(rendered) || len(rendered) == 0 {
			t.Errorf("shard %s: clusters %v, rendered %v, directory holds %d", shard, names, rendered, len(entries))
		}

		var d diffClusters
		mustUnmarshal(t, mlRun(t, "", "diff", "--config", "none", "--format", "json", "--shard", shard, ".", ".").stdout, &d)
		var diffed []string
		for _, c := range d.Clusters {
			diffed = append(diffed, c.Name)
		}
		if strings.Join(diffed, ",") != strings.Join(names, ",") {
			t.Errorf("shard %s: diff compares %v, clusters lists %v", shard, diffed, names)
		}
	}
	if len(all) != 9 {
		t.Errorf("the shards list %d distinct clusters, want the 9 sites: %v", len(all), all)
	}
	for n, c := range all {
		if c != 1 {
			t.Errorf("%s is in %d shards", n, c)
		}
	}
	if r := mlRun(t, "", "lint", "--shard", "4/3", "."); r.code != exitUsage || !strings.Contains(r.stderr, "want K/N") {
		t.Errorf("--shard 4/3: exit %d, %s", r.code, r.stderr)
	}
}
