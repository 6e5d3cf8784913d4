package gitrev

import (
	"os"
	"sync"
)

// live holds the snapshot directories not yet closed, so that a run ended
// by a signal removes them too (RemoveLive): a --base snapshot of a large
// repository is hundreds of megabytes in the temporary directory.
var live struct {
	sync.Mutex
	dirs map[string]bool
}

func track(dir string) {
	live.Lock()
	defer live.Unlock()
	if live.dirs == nil {
		live.dirs = map[string]bool{}
	}
	live.dirs[dir] = true
}

func untrack(dir string) {
	live.Lock()
	defer live.Unlock()
	delete(live.dirs, dir)
}

// RemoveLive removes every snapshot still open. The command calls it from
// its one signal handler before it exits.
func RemoveLive() {
	live.Lock()
	defer live.Unlock()
	for d := range live.dirs {
		os.RemoveAll(d)
		delete(live.dirs, d)
	}
}
