package build

import (
	"time"

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
	var early []*buildEntry
	var edirs []string
	for _, dir := range dirs {
		if bc.mayBeFast(dir) {
			continue
		}
		e := bc.entry(dir)
		bc.mu.Lock()
		if e.early == nil {
			e.early = &earlyBuild{done: make(chan struct{})}
			early, edirs = append(early, e), append(edirs, dir)
		}
		bc.mu.Unlock()
	}
	all := make(chan struct{})
	go func() {
		defer close(all)
		parallel.Within(w, len(early), func(i int) {
			eb := early[i]
			start := time.Now()
			eb.early.b, eb.early.err = bc.full(edirs[i])
			eb.early.elapsed = time.Since(start)
			close(eb.early.done)
		})
	}()
	return func() { <-all }
}

// mayBeFast reports whether dir's build may be a fast one: what fastFS
// asks before it reads anything the load holds.
func (bc *Cache) mayBeFast(dir string) bool {
	d := bc.d
	if d.opts.NoFast || hasPlugins(d.closureKusts(dir)) {
		return false
	}
	m, _, ok := d.fastBase(dir, d.needs())
	bc.mu.Lock()
	shared := bc.shared[m]
	bc.mu.Unlock()
	return ok && shared >= 2
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
