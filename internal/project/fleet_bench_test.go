package project_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/heapwatch"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

const fleetSites = 500

// BenchmarkFleet500 measures the fleet targets on a generated repository
// of 500 site overlays over one base (package benchrepo, GetSites: one
// kustomization and one JSON 6902 patch per site, 1,035 files), against
// kustomize itself in the same run:
//
//   - KustomizeOne: one site built in-process (krusty, what `kustomize
//     build` runs, output serialised), fresh each time;
//   - KustomizeCLIOne: the real kustomize binary (bin/tools/kustomize)
//     building one site, process start included, as a user runs it;
//   - PreCommit: `mirrorlint lint sites/site-0001/mirror.yaml` from the
//     repository root (the pre-commit path): the built-in checks compiled,
//     the project opened with the file given, its clusters linted;
//   - Clusters: `mirrorlint clusters`: every cluster found, nothing built;
//   - LintAll: `mirrorlint lint .`: all 500 clusters built and linted,
//     with its peak memory;
//   - KustomizeLoop: the serial loop of in-process builds of every site
//     (the CLI loop is KustomizeCLIOne times 500: one process per site).
//
// Ratios reports the targets as ratios of the measured medians: PreCommit
// and Clusters over one build, LintAll over the serial loop; the -cli
// ratios use the real binary as the reference, the others the in-process
// build. cpu- ratios compare process CPU time, steadier than wall time on
// a shared machine. mirrorlint's runs have the collector pace the command
// sets (heapwatch.PaceCommand), kustomize's Go's default, as each runs
// for its user.
func BenchmarkFleet500(b *testing.B) {
	s, err := benchrepo.GetSites(fleetSites)
	if err != nil {
		b.Fatal(err)
	}
	site := filepath.Join(s.Dir, benchrepo.SiteName(1))
	file := filepath.Join(site, "mirror.yaml")
	type measure struct{ wall, cpu time.Duration }
	m := map[string]measure{}
	record := func(b *testing.B, name string, pm *peakMemory) {
		wall := b.Elapsed() / time.Duration(b.N)
		cpu := pm.cpuPerOp(b)
		m[name] = measure{wall, cpu}
	}

	b.Run("KustomizeOne", func(b *testing.B) {
		pm := startPeak(b)
		for b.Loop() {
			kustomizeBuild(b, site)
		}
		pm.stop(b)
		record(b, "one", pm)
	})
	b.Run("KustomizeCLIOne", func(b *testing.B) {
		bin, err := filepath.Abs("../../bin/tools/kustomize")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := os.Stat(bin); err != nil {
			b.Skipf("no kustomize binary (make test installs it): %v", err)
		}
		var cpu time.Duration
		start := time.Now()
		for range b.N {
			cmd := exec.Command(bin, "build", site)
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
			cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		m["cli"] = measure{time.Since(start) / time.Duration(b.N), cpu / time.Duration(b.N)}
		b.ReportMetric(float64(m["cli"].cpu.Microseconds())/1000, "cpu-ms/op")
	})
	b.Run("PreCommit", func(b *testing.B) {
		defer heapwatch.PaceCommand()()
		pm := startPeak(b)
		var n int
		for b.Loop() {
			n = lintFleet(b, s.Dir, file)
		}
		pm.stop(b)
		record(b, "precommit", pm)
		b.ReportMetric(float64(n), "clusters")
	})
	b.Run("Clusters", func(b *testing.B) {
		defer heapwatch.PaceCommand()()
		pm := startPeak(b)
		var n int
		for b.Loop() {
			p, err := project.Open(project.Options{Paths: []string{s.Dir}, Root: s.Dir, ConfigPath: "none", Static: true})
			if err != nil {
				b.Fatal(err)
			}
			n = len(p.Clusters)
		}
		pm.stop(b)
		if n != s.Sites {
			b.Fatalf("%d clusters, want %d", n, s.Sites)
		}
		record(b, "clusters", pm)
	})
	b.Run("LintAll", func(b *testing.B) {
		defer heapwatch.PaceCommand()()
		pm := startPeak(b)
		var n int
		for b.Loop() {
			n = lintFleet(b, s.Dir, "")
		}
		pm.stop(b)
		if n != s.Sites {
			b.Fatalf("%d clusters linted, want %d", n, s.Sites)
		}
		record(b, "lint", pm)
		m["lint-rss"] = measure{wall: time.Duration(vmHWM())}
	})
	b.Run("KustomizeLoop", func(b *testing.B) {
		pm := startPeak(b)
		for b.Loop() {
			for i := 1; i <= s.Sites; i++ {
				kustomizeBuild(b, filepath.Join(s.Dir, benchrepo.SiteName(i)))
			}
		}
		pm.stop(b)
		record(b, "loop", pm)
	})
	b.Run("Ratios", func(b *testing.B) {
		for b.Loop() {
		}
		ratio := func(a, ref string, cpu bool, scale float64) float64 {
			x, y := m[a].wall, m[ref].wall
			if cpu {
				x, y = m[a].cpu, m[ref].cpu
			}
			if y == 0 {
				return 0
			}
			return float64(x) / (float64(y) * scale)
		}
		b.ReportMetric(ratio("precommit", "one", false, 1), "precommit/build")
		b.ReportMetric(ratio("clusters", "one", false, 1), "clusters/build")
		b.ReportMetric(ratio("lint", "loop", false, 1), "lint-all/build-loop")
		b.ReportMetric(ratio("precommit", "one", true, 1), "cpu-precommit/build")
		b.ReportMetric(ratio("lint", "loop", true, 1), "cpu-lint-all/build-loop")
		if m["cli"].wall > 0 {
			b.ReportMetric(ratio("precommit", "cli", false, 1), "precommit/build-cli")
			b.ReportMetric(ratio("clusters", "cli", false, 1), "clusters/build-cli")
			b.ReportMetric(ratio("lint", "cli", false, fleetSites), "lint-all/build-loop-cli")
		}
		b.ReportMetric(float64(m["lint-rss"].wall)/1024, "lint-all-peak-RSS-MB")
	})
}

// kustomizeBuild is `kustomize build dir`: the same options, the output
// serialised.
func kustomizeBuild(b *testing.B, dir string) {
	o := krusty.MakeDefaultOptions()
	o.LoadRestrictions = types.LoadRestrictionsRootOnly
	rm, err := krusty.MakeKustomizer(o).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := rm.AsYaml(); err != nil {
		b.Fatal(err)
	}
}

// lintFleet is `mirrorlint lint` from the repository root dir through the
// shared pipeline: with file set, the pre-commit path (file given, the
// repository as context: only the clusters reading file are read and
// built, other files prefiltered by what the checks read). The checks are
// compiled each time, as each run of the command does. It returns how
// many clusters were linted.
func lintFleet(b *testing.B, dir, file string) int {
	c, err := pipeline.LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		b.Fatal(err)
	}
	req := pipeline.Request{Options: project.Options{Paths: []string{dir}, Config: &config.Config{}, Root: dir}}
	if file != "" {
		req.Paths, req.Context = []string{file}, dir
	}
	res, err := pipeline.Run(context.Background(), c, req)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Severity == check.Error {
			b.Fatalf("error finding on the generated fleet: %v", f)
		}
	}
	return len(res.Project.Clusters)
}

// cpuPerOp is the CPU time per operation peakMemory measured.
func (pm *peakMemory) cpuPerOp(b *testing.B) time.Duration {
	return pm.cpuUsed / time.Duration(max(b.N, 1))
}
