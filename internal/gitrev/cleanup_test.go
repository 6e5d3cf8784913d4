package gitrev

import (
	"os"
	"testing"
)

// A snapshot still open when a signal ends the run is removed by the
// handler's RemoveLive; one already closed is no longer tracked.
func TestRemoveLiveRemovesOpenSnapshots(t *testing.T) {
	open, err := os.MkdirTemp("", "mirrorlint-base-")
	if err != nil {
		t.Fatal(err)
	}
	track(open)
	closed := &Snapshot{Dir: t.TempDir()}
	track(closed.Dir)
	closed.Close()
	RemoveLive()
	if _, err := os.Stat(open); !os.IsNotExist(err) {
		t.Errorf("open snapshot %s survived: %v", open, err)
	}
	live.Lock()
	n := len(live.dirs)
	live.Unlock()
	if n != 0 {
		t.Errorf("%d snapshots still tracked", n)
	}
}
