package build

import (
	"time"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/parallel"
)

// earlyBuild is a full build's kustomize run, started before the load
// and finished (traced to the loaded files) by build.
type earlyBuild struct {
	done    chan struct{}
	b       *built
	err     error
	elapsed time.Duration
}

// Start begins, on up to w goroutines, the kustomize runs of the builds
// of dirs that will be full builds whatever the files hold, and returns at
// once; wait returns when they are done. kustomize reads its files itself,
// so those runs need not wait for the load: started before it, they use
// the cores the load leaves idle (waiting on the disk, its last files),
// and Run only traces their output to the loaded files. Fast builds, and
// builds that may be fast, wait for Run: they read the loaded files.
func (bc *Cache) Start(dirs []string, w int) (wait func()) {
	bc.count(dirs)
	type run struct {
		dir string
		eb  *earlyBuild
	}
	var runs []run
	for _, dir := range dirs {
		if _, _, fast := bc.fastCandidate(dir); fast {
			continue
		}
		e := bc.entry(dir)
		bc.mu.Lock()
		if e.early == nil {
			e.early = &earlyBuild{done: make(chan struct{})}
			runs = append(runs, run{dir, e.early})
		}
		bc.mu.Unlock()
	}
	all := make(chan struct{})
	go func() {
		defer close(all)
		parallel.Within(w, len(runs), func(i int) {
			eb, start := runs[i].eb, time.Now()
			eb.b, eb.err = bc.full(runs[i].dir)
			eb.elapsed = time.Since(start)
			close(eb.done)
		})
	}()
	return func() { <-all }
}

// fastCandidate reports whether dir's build may be a fast one, with its
// base and the kinds it writes: what fastFS asks before it reads anything
// the load holds (no plugins, the overlay's shape, a base shared by two
// overlays or more).
func (bc *Cache) fastCandidate(dir string) (base string, own manifest.Needs, ok bool) {
	d := bc.d
	if d.opts.NoFast || hasStripped(d.closureKusts(dir)) {
		return "", manifest.Needs{}, false
	}
	m, own, ok := bc.fastBase(dir)
	bc.mu.Lock()
	shared := bc.shared[m]
	bc.mu.Unlock()
	return m, own, ok && shared >= 2
}

// Discard forgets the kustomize runs Start began, so that Run builds
// them again after the load; for a load that spent one of the run's
// budgets (safefs.Budget.Spent), where a build started before the load
// met a budget not spent yet and would say otherwise than one run after
// it.
func (bc *Cache) Discard() {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	for _, e := range bc.dirs {
		e.early = nil
	}
}
