package heapwatch

import (
	"os"
	"runtime/debug"
	"testing"
)

// gcPercent reads the collector's pace.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// The command's pace is set and put back, and GOGC in the environment is
// left to decide.
func TestPaceCommand(t *testing.T) {
	t.Setenv("GOGC", "") // the variable is restored after the test
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	for _, env := range []bool{false, true} {
		want := CommandGCPercent
		if env {
			t.Setenv("GOGC", "77")
			want = 77
		} else if err := os.Unsetenv("GOGC"); err != nil {
			t.Fatal(err)
		}
		restore := PaceCommand()
		if got := gcPercent(); got != want {
			t.Errorf("GOGC in the environment %v: pace %d, want %d", env, got, want)
		}
		restore()
		if got := gcPercent(); got != 77 {
			t.Errorf("GOGC in the environment %v: restored to %d, want 77", env, got)
		}
	}
}
