package project_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/contentcache"
	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/heapwatch"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// BenchmarkCache10k measures the runs the content cache serves on the
// 10,000-file repository, made a git repository once (one commit), each
// against the parse floor of the same run:
//
//   - Parse: manifest.Load of the tree, every file read and parsed on all
//     cores: the floor.
//
//   - Lint, LintCold, LintWarm: `mirrorlint lint .` without the cache,
//     with an empty one (filled and written as it goes), and with the
//     cache a run has filled, the unchanged files' blob ids asked of git
//     (gitrev.Blobs, git's own cost included, the repository listed
//     meanwhile as the command lists it) so that they are not read;
//     the cache is both packs the command opens: the loader's per-file
//     results, the per-cluster check results (clusters-reused says how
//     many clusters the warm run did not check again) and whole runs
//     (whole-run is 1 when the warm run took its result whole, loading
//     nothing: what the command does in a repository). Reads are
//     confined to the repository, as the command confines them.
//
//   - PreCommit, PreCommitCold, PreCommitWarm: the same three for the
//     pre-commit path on one workload file of apps/ (its cluster is every
//     file outside the layouts: 9,960 files, 7,600 workloads whose images
//     are checked).
//
//   - Paired: LintCold and PreCommitCold again, each run timed between
//     two runs of Parse, the ratio over their mean (the median of the
//     runs): the machine's pace drifts between sub-benchmarks.
//
//   - Conftest: conftest test --combine over the tree with four of the
//     same checks written for it (testdata/conftest), when a conftest
//     binary is installed (bin/tools/conftest, `make conftest`, or PATH).
//
// Ratios reports each over Parse, wall and CPU, and conftest over each
// lint run.
func BenchmarkCache10k(b *testing.B) {
	// The command's collector pace, for the floor too: it is the
	// command's own loader, the least any run of it does.
	defer heapwatch.PaceCommand()()
	r := benchRepo(b)
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git")); err != nil {
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=b", "-c", "user.email=b@example.com", "commit", "-qm", "tree"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = r.Dir
			cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
	}
	// Every run is measured on a settled machine: git's objects just
	// written are flushed first (the first loads after the commit would
	// otherwise wait on their writeback and make the floor half as slow
	// again), and one load reads the tree into the page cache.
	syncDisks()
	if _, err := manifest.Load([]string{r.Dir}, manifest.Options{}); err != nil {
		b.Fatal(err)
	}
	workload := filepath.Join(r.Dir, "apps/team-01/app-000/app-1-all.yaml")
	if _, err := os.Stat(workload); err != nil {
		b.Fatal(err)
	}
	type measure struct{ wall, cpu time.Duration }
	m := map[string]measure{}
	record := func(b *testing.B, name string, pm *peakMemory) {
		m[name] = measure{b.Elapsed() / time.Duration(b.N), pm.cpuPerOp(b)}
	}
	version := contentcache.Version()
	if version == "" {
		b.Skip("no build ID: the cache is off")
	}
	reused := 0    // clusters the last run took from the result cache
	whole := false // whether the last run was taken whole from the cache
	run := func(b *testing.B, file, cacheDir string, blobs bool) int {
		c, err := pipeline.LoadChecks(policy.Options{Builtin: true})
		if err != nil {
			b.Fatal(err)
		}
		// Reads confined as the command confines them: the repository
		// and the paths given, under the default budgets.
		access := safefs.New(0, r.Dir)
		access.Budget = &safefs.Budget{Max: safefs.DefaultBudget, MaxObjects: safefs.DefaultObjectBudget}
		req := pipeline.Request{Options: project.Options{Paths: []string{r.Dir}, Config: &config.Config{}, Root: r.Dir, Access: access}}
		if file != "" {
			req.Paths, req.Context = []string{file}, r.Dir
		}
		access.Allow(req.Paths...)
		var pack, results *contentcache.Pack
		if cacheDir != "" {
			pack = contentcache.Open(cacheDir, version, manifest.CacheFormat)
			results = contentcache.Open(cacheDir, version, pipeline.ResultFormat)
			req.Cache, req.Results, req.Runs = pack, results, results
		}
		if blobs {
			// As the command does: the repository listed while git is
			// asked for the blob ids.
			var listing sync.WaitGroup
			listing.Go(func() { access.Prefetch(r.Dir, nil) })
			ids, err := gitrev.Blobs(r.Dir)
			listing.Wait()
			if err != nil {
				b.Fatal(err)
			}
			req.Blobs = func(p string) (string, bool) { id, ok := ids[p]; return id, ok }
		}
		// The loader's pack written while the checks run, as the
		// command writes it (Request.Loaded), and again should anything
		// have been added since.
		var closing sync.WaitGroup
		var packErr error
		if pack != nil {
			req.Loaded = func() { closing.Go(func() { packErr = pack.Close() }) }
		}
		res, err := pipeline.Run(context.Background(), c, req)
		if err != nil {
			b.Fatal(err)
		}
		err = results.Close()
		closing.Wait()
		if err := errors.Join(err, packErr, pack.Close()); err != nil {
			b.Fatal(err)
		}
		reused, whole = res.Reused, res.WholeRun
		return len(res.Findings)
	}

	b.Run("Parse", func(b *testing.B) {
		pm := startPeak(b)
		for b.Loop() {
			if _, err := manifest.Load([]string{r.Dir}, manifest.Options{}); err != nil {
				b.Fatal(err)
			}
		}
		pm.stop(b)
		record(b, "parse", pm)
	})
	for _, pc := range []struct{ name, file string }{{"Lint", ""}, {"PreCommit", workload}} {
		var uncached int
		b.Run(pc.name, func(b *testing.B) {
			pm := startPeak(b)
			for b.Loop() {
				uncached = run(b, pc.file, "", false)
			}
			pm.stop(b)
			record(b, pc.name, pm)
			b.ReportMetric(float64(uncached), "findings")
		})
		b.Run(pc.name+"Cold", func(b *testing.B) {
			dir := b.TempDir()
			pm := startPeak(b)
			var n int
			for b.Loop() {
				n = run(b, pc.file, filepath.Join(dir, time.Now().Format("150405.000000000")), true)
			}
			pm.stop(b)
			record(b, pc.name+"Cold", pm)
			if n != uncached {
				b.Fatalf("%d findings with an empty cache, %d without", n, uncached)
			}
		})
		b.Run(pc.name+"Warm", func(b *testing.B) {
			dir := b.TempDir()
			run(b, pc.file, dir, true)
			pm := startPeak(b)
			var n int
			for b.Loop() {
				n = run(b, pc.file, dir, true)
			}
			pm.stop(b)
			record(b, pc.name+"Warm", pm)
			b.ReportMetric(float64(reused), "clusters-reused")
			if whole {
				b.ReportMetric(1, "whole-run")
			} else {
				b.ReportMetric(0, "whole-run")
			}
			if n != uncached {
				b.Fatalf("%d findings from the cache, %d without", n, uncached)
			}
		})
	}
	// An edit after the cache was filled: each iteration writes the
	// workload file anew, a tag bump (the edit a workload most often
	// gets) and every other time the same with a YAML error in it, a
	// new blob every time, and requires the findings of an uncached run
	// of that content: the edit is found, the rest taken from the cache.
	orig, err := os.ReadFile(workload)
	if err != nil {
		b.Fatal(err)
	}
	edit := func(b *testing.B, i int) {
		text := strings.Replace(string(orig), "@sha256:"+strings.Repeat("0", 63)+"1", ":v"+strconv.Itoa(i), 1)
		if i%2 == 1 {
			text = strings.Replace(text, "replicas: 3", "replicas: [3", 1)
		}
		if text == string(orig) {
			b.Fatal("the edit changed nothing")
		}
		if err := os.WriteFile(workload, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, pc := range []struct{ name, file string }{{"Lint", ""}, {"PreCommit", workload}} {
		b.Run(pc.name+"Edit", func(b *testing.B) {
			defer os.WriteFile(workload, orig, 0o644)
			var want [2]int
			for k := range want {
				edit(b, k)
				want[k] = run(b, pc.file, "", false)
			}
			if want[1] <= want[0] {
				b.Fatalf("a YAML error in the workload gave %d findings, %d without", want[1], want[0])
			}
			dir := b.TempDir()
			if err := os.WriteFile(workload, orig, 0o644); err != nil {
				b.Fatal(err)
			}
			run(b, pc.file, dir, true)
			pm := startPeak(b)
			i := 0
			for b.Loop() {
				i++
				b.StopTimer()
				edit(b, i)
				b.StartTimer()
				if n := run(b, pc.file, dir, true); n != want[i%2] {
					b.Fatalf("edit %d: %d findings from the cache, %d without", i, n, want[i%2])
				}
			}
			pm.stop(b)
			record(b, pc.name+"Edit", pm)
			b.ReportMetric(float64(reused), "clusters-reused")
		})
	}
	// The cold runs against the floor measured around each of them: the
	// machine's pace drifts between sub-benchmarks more than the ratios
	// the targets are about, so each cold run is timed between two parse
	// runs and its ratio is over their mean; the metric is the median.
	// Every run starts from a collected heap: a run after one that left a
	// large heap behind collects less often than it would on its own.
	b.Run("Paired", func(b *testing.B) {
		dir := b.TempDir()
		floor := func() time.Duration {
			runtime.GC()
			start := time.Now()
			if _, err := manifest.Load([]string{r.Dir}, manifest.Options{}); err != nil {
				b.Fatal(err)
			}
			return time.Since(start)
		}
		ratios := map[string][]float64{}
		for b.Loop() {
			for _, pc := range []struct{ name, file string }{{"LintCold", ""}, {"PreCommitCold", workload}} {
				before := floor()
				runtime.GC()
				start := time.Now()
				run(b, pc.file, filepath.Join(dir, time.Now().Format("150405.000000000")), true)
				took := time.Since(start)
				after := floor()
				ratios[pc.name] = append(ratios[pc.name], 2*float64(took)/float64(before+after))
			}
		}
		for name, rs := range ratios {
			slices.Sort(rs)
			b.ReportMetric(rs[len(rs)/2], name+"/parse-paired")
		}
	})
	b.Run("Conftest", func(b *testing.B) {
		bin := conftestBinary(b)
		policy, err := filepath.Abs("testdata/conftest")
		if err != nil {
			b.Fatal(err)
		}
		var cpu time.Duration
		start := time.Now()
		for range b.N {
			cmd := exec.Command(bin, "test", "--combine", "--no-color", "-p", policy, ".")
			cmd.Dir = r.Dir
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
				b.Fatalf("conftest: %v\n%s", err, out) // 1 is failures found
			}
			cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		m["conftest"] = measure{time.Since(start) / time.Duration(b.N), cpu / time.Duration(b.N)}
		b.ReportMetric(float64(m["conftest"].cpu.Microseconds())/1000, "cpu-ms/op")
	})
	b.Run("Ratios", func(b *testing.B) {
		for b.Loop() {
		}
		for _, name := range []string{"Lint", "LintCold", "LintWarm", "LintEdit", "PreCommit", "PreCommitCold", "PreCommitWarm", "PreCommitEdit"} {
			if p := m["parse"]; p.wall > 0 && m[name].wall > 0 {
				b.ReportMetric(float64(m[name].wall)/float64(p.wall), name+"/parse")
				b.ReportMetric(float64(m[name].cpu)/float64(p.cpu), "cpu-"+name+"/parse")
			}
			// How many times faster than conftest test --combine with
			// four of the same checks (testdata/conftest).
			if c := m["conftest"]; c.wall > 0 && m[name].wall > 0 && strings.HasPrefix(name, "Lint") {
				b.ReportMetric(float64(c.wall)/float64(m[name].wall), "conftest/"+name)
				b.ReportMetric(float64(c.cpu)/float64(m[name].cpu), "cpu-conftest/"+name)
			}
		}
	})
}

// conftestBinary is bin/tools/conftest, else conftest on PATH; the
// benchmark is skipped without one.
func conftestBinary(b *testing.B) string {
	if bin, err := filepath.Abs("../../bin/tools/conftest"); err == nil {
		if _, err := os.Stat(bin); err == nil {
			return bin
		}
	}
	bin, err := exec.LookPath("conftest")
	if err != nil {
		b.Skip("no conftest binary (make conftest installs it)")
	}
	return bin
}
