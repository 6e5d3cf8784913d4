package project_test

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/benchrepo"
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/heapwatch"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

func TestMain(m *testing.M) {
	code := m.Run()
	benchrepo.Cleanup()
	os.Exit(code)
}

const repoFiles = 10000

func benchRepo(b *testing.B) *benchrepo.Repo {
	b.Helper()
	r, err := benchrepo.Get(repoFiles)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkRepo10k is the end-to-end measurement of loading, discovery and
// linting on the shared 10,000-file repository (95% workloads, 5% mirror
// files, a kustomize base and four overlays: five clusters).
//
//   - ReadFiles: walking the tree and reading every file on GOMAXPROCS
//     goroutines, no parsing: the I/O below the floor, for comparison.
//   - Parse: manifest.Load of the tree, the floor every command pays.
//   - KustomizeBuilds: cluster discovery (Parse plus the four overlay
//     builds and tracing built objects back to their files); build-ms/op
//     is the kustomize builds alone, as timed by cluster.Stats.
//   - Lint: what `mirrorlint lint DIR` does without user policies: open
//     the project, compile the built-in Rego library, lint every cluster
//     with the Go rules and the library, relocate and merge the findings.
//   - PolicyStage: only the Rego evaluation of every cluster, on contexts
//     already loaded and rendered, so that its cost is reported separately.
//
// Every sub-benchmark reports peak-heap-MB and peak-RSS-MB, see peakMemory.
func BenchmarkRepo10k(b *testing.B) {
	// The command's collector pace, for the floors too (the command's own
	// reads and loader).
	defer heapwatch.PaceCommand()()
	r := benchRepo(b)
	files := float64(r.Files)

	b.Run("ReadFiles", func(b *testing.B) {
		pm := startPeak(b)
		var n int
		for b.Loop() {
			n = readAll(b, r.Dir)
		}
		pm.stop(b)
		if n != r.Files {
			b.Fatalf("read %d files, want %d", n, r.Files)
		}
		b.ReportMetric(files*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	})

	b.Run("Parse", func(b *testing.B) {
		pm := startPeak(b)
		var s *manifest.Set
		for b.Loop() {
			var err error
			if s, err = manifest.Load([]string{r.Dir}, manifest.Options{}); err != nil {
				b.Fatal(err)
			}
		}
		pm.stop(b)
		if len(s.Files) != r.Files || len(s.Objects) != r.MirrorObjects || len(s.Problems) != 0 {
			b.Fatalf("files %d/%d objects %d/%d problems %v", len(s.Files), r.Files, len(s.Objects), r.MirrorObjects, s.Problems)
		}
		b.ReportMetric(files*float64(b.N)/b.Elapsed().Seconds(), "files/s")
	})

	b.Run("KustomizeBuilds", func(b *testing.B) {
		pm := startPeak(b)
		var st cluster.Stats
		for b.Loop() {
			res, err := cluster.Discover(cluster.Options{Paths: []string{r.Dir}})
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Clusters) != r.Clusters {
				b.Fatalf("%d clusters, want %d", len(res.Clusters), r.Clusters)
			}
			st.Load += res.Stats.Load
			st.Build += res.Stats.Build
			st.Remap += res.Stats.Remap
			st.Builds = res.Stats.Builds
		}
		pm.stop(b)
		per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
		b.ReportMetric(files*float64(b.N)/b.Elapsed().Seconds(), "files/s")
		b.ReportMetric(per(st.Load), "load-ms/op")
		b.ReportMetric(per(st.Build), "build-ms/op")
		b.ReportMetric(per(st.Remap), "remap-ms/op")
		b.ReportMetric(float64(st.Builds), "builds/op")
	})

	b.Run("Lint", func(b *testing.B) {
		pm := startPeak(b)
		var findings int
		for b.Loop() {
			findings = lintRepo(b, r.Dir)
		}
		pm.stop(b)
		b.ReportMetric(files*float64(b.N)/b.Elapsed().Seconds(), "files/s")
		b.ReportMetric(float64(findings), "findings")
	})

	// The pre-commit path on one changed file: only the clusters reading
	// it are loaded, and of the other files only those that may hold what
	// the checks read are parsed (a byte-level prefilter). A mirror file in
	// an overlay (one cluster built), and one in apps/ (the cluster of
	// every file outside the layouts: each file read, few parsed).
	for _, pc := range []struct{ name, glob string }{
		{"PreCommitOverlay", "overlays/prod/mirrors-*.yaml"},
		{"PreCommitApps", "apps/team-00/app-000/mirrors.yaml"},
	} {
		b.Run(pc.name, func(b *testing.B) {
			files, err := filepath.Glob(filepath.Join(r.Dir, pc.glob))
			if err != nil || len(files) != 1 {
				b.Fatalf("%s: %v %v", pc.glob, files, err)
			}
			pm := startPeak(b)
			var n int
			for b.Loop() {
				n = lintFleet(b, r.Dir, files[0])
			}
			pm.stop(b)
			b.ReportMetric(float64(n), "clusters")
		})
	}

	b.Run("PolicyStage", func(b *testing.B) {
		p, pe := openRepo(b, r.Dir)
		ctxs := make([]*check.Context, len(p.Clusters))
		objects := 0
		for i, cl := range p.Clusters {
			ctxs[i] = check.NewContext(cl)
			objects += len(cl.Objects)
		}
		pm := startPeak(b)
		for b.Loop() {
			for _, c := range ctxs {
				if _, err := pe.Evaluate(c); err != nil {
					b.Fatal(err)
				}
			}
		}
		pm.stop(b)
		b.ReportMetric(float64(objects), "objects")
		b.ReportMetric(float64(len(ctxs)), "clusters")
	})
}

// readAll walks dir and reads every file on GOMAXPROCS goroutines, the
// way manifest.Load schedules its reads, and returns how many it read.
func readAll(b *testing.B, dir string) int {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	next := make(chan string)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range next {
				if _, err := os.ReadFile(p); err != nil {
					b.Error(err)
				}
			}
		})
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	return len(paths)
}

// openRepo opens dir as `mirrorlint lint` does (no config file: a
// .mirrorlint.yaml above the package directory must not change the run).
func openRepo(b *testing.B, dir string) (*project.Project, lintEngine) {
	b.Helper()
	p, err := project.Open(project.Options{Paths: []string{dir}, ConfigPath: "none"})
	if err != nil {
		b.Fatal(err)
	}
	c, err := pipeline.LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		b.Fatal(err)
	}
	return p, c.Policies
}

// lintEngine is the part of *policy.Engine PolicyStage needs.
type lintEngine = check.Evaluator

// lintRepo is `mirrorlint lint DIR` without the output: the shared
// pipeline with the Go rules and the built-in library on every cluster.
func lintRepo(b *testing.B, dir string) int {
	c, err := pipeline.LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		b.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), c, pipeline.Request{Options: project.Options{Paths: []string{dir}, Config: &config.Config{}}})
	if err != nil {
		b.Fatal(err)
	}
	return len(res.Findings)
}

// peakMemory measures the peak memory of one sub-benchmark two ways:
//
//   - peak-heap-MB samples runtime/metrics every millisecond while the
//     benchmark runs: the most heap (live and not yet swept objects) the
//     work needed, independent of what ran before in the process.
//   - peak-RSS-MB is the kernel's VmHWM from /proc/self/status: the peak
//     resident set of the whole process (runtime, stacks, the benchmark
//     harness and GC headroom included), closer to what a user's
//     `/usr/bin/time` shows. It is process-wide and only grows, so the
//     peak is reset (writing 5 to /proc/self/clear_refs, Linux ≥ 4.0)
//     after a GC that returns memory to the OS; where the reset is not
//     allowed the metric is the process's peak so far.
//
// Sampling every millisecond can miss a short spike; with GOGC at its
// default the heap peaks at each GC cycle, which lasts far longer.
//
// cpu-ms/op is the process's user+system CPU time per operation
// (getrusage): on a shared machine it moves much less than ns/op, which
// also counts the time other processes hold the cores. cpu-ms/op above
// ns/op means the work ran on several cores.
type peakMemory struct {
	done chan struct{}
	wg   sync.WaitGroup
	peak uint64
	cpu  time.Duration
	// cpuUsed is the CPU time the sub-benchmark used, set by stop.
	cpuUsed time.Duration
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func startPeak(b *testing.B) *peakMemory {
	b.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	pm := &peakMemory{done: make(chan struct{})}
	pm.wg.Add(1)
	go func() {
		defer pm.wg.Done()
		s := []metrics.Sample{{Name: heapMetric}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			pm.peak = max(pm.peak, s[0].Value.Uint64())
			select {
			case <-pm.done:
				return
			case <-t.C:
			}
		}
	}()
	pm.cpu = cpuTime()
	b.ReportAllocs()
	b.ResetTimer()
	return pm
}

func (pm *peakMemory) stop(b *testing.B) {
	b.StopTimer()
	cpu := cpuTime() - pm.cpu
	pm.cpuUsed = cpu
	close(pm.done)
	pm.wg.Wait()
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(pm.peak)/(1<<20), "peak-heap-MB")
	if kb := vmHWM(); kb > 0 {
		b.ReportMetric(float64(kb)/1024, "peak-RSS-MB")
	}
}

// vmHWM returns the process's peak resident set in KiB, 0 when unknown.
func vmHWM() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if v, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:")); ok {
			f := bytes.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(string(f[0]), 10, 64)
				return n
			}
		}
	}
	return 0
}
