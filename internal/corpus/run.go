package corpus

import (
	"os"
	"testing"
)

// RunBoth runs run on the cases copied into local (subtest "testdata")
// and on the shared corpus at shared (subtest "shared"), which is skipped
// with a message when the shared copy is not beside the repository.
func RunBoth(t *testing.T, local, shared string, run func(t *testing.T, root string)) {
	t.Helper()
	t.Run("testdata", func(t *testing.T) { run(t, local) })
	t.Run("shared", func(t *testing.T) {
		if _, err := os.Stat(shared); err != nil {
			t.Skipf("shared corpus not available at %s: %v", shared, err)
		}
		run(t, shared)
	})
}
