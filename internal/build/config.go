package build

import (
	"sync"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Config is what the builds of one discovery share with it.
type Config struct {
	Graph *kustomization.Graph
	// Files holds the files the discovery read, and names files as the
	// loader shows them.
	Files *kustomization.Resolver
	Load  manifest.Options
	// Needs are the object kinds the run reads (nil: every kind the loader
	// keeps); builds may leave out documents of other kinds when that
	// provably changes nothing else (see fastbuild.go).
	Needs *manifest.Needs
	// Stats receives the builds' counts and durations.
	Stats *Stats
	// NoFast turns fast builds off; tests compare them against full builds.
	NoFast bool
	// BuildTimeout bounds one kustomize build; 0 is DefaultBuildTimeout.
	BuildTimeout time.Duration
}

// DefaultBuildTimeout bounds one kustomize build: real ones take
// milliseconds, a hostile one (a patch explosion) is stopped at its next
// file read past the limit and reported on its cluster.
const DefaultBuildTimeout = 60 * time.Second

// Stats is the cost of the builds. Durations of work done in parallel are
// summed over the workers.
type Stats struct {
	Builds int // kustomize builds run (FastBuilds included)
	// FastBuilds are builds of overlays on a base with the documents no
	// rule reads left out (see fastbuild.go); BaseBuilds the standalone
	// builds of those bases that vouch for them.
	FastBuilds int
	BaseBuilds int
	Build      time.Duration // kustomize builds, reading their output included
	Remap      time.Duration // tracing built objects to their files
}

// env is what the build methods read of their Config.
type env struct {
	opts    Config
	graph   *kustomization.Graph
	res     *kustomization.Resolver
	stats   *Stats
	statsMu sync.Mutex
}

// closureKusts returns the kustomizations dir's build reads, dir's first.
func (d *env) closureKusts(dir string) []*kustomization.File {
	kusts, _ := d.graph.Closure(dir)
	return kusts
}

// ShapeProblem is a kustomize error that is encoding/json refusing the
// shape of one of kusts (see shape.go), or kustomize failing to read a file
// a generator or a patch entry of kusts names (see sources.go), positioned
// on the offending value; ok is false for any other error.
func (bc *Cache) ShapeProblem(err error, kusts []*kustomization.File) (manifest.Problem, bool) {
	if p, ok := bc.d.sourceProblem(err, kusts); ok {
		return p, true
	}
	if p, ok := bc.d.patchFileProblem(err, kusts); ok {
		return p, true
	}
	return bc.d.shapeProblem(err, kusts)
}

func (d *env) kustProblem(k *kustomization.File, line, col int, msg string) manifest.Problem {
	if line <= 0 {
		line, col = 1, 1
	}
	return manifest.Problem{Pos: manifest.Position{File: d.res.Display(k.Path), Line: line, Column: col}, Code: "kustomize-error", Message: msg}
}
