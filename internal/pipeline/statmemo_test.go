package pipeline

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// A file git has no id for keeps its content id between listings while
// its stat data stay the same, and is read again once they change (an
// edit of the same size included) or while its last change is recent.
func TestStatMemoReadsOnlyChangedFiles(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("stat data are not trusted here")
	}
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "ignored.yaml")
	write := func(text string, age time.Duration) {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-age)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	store := &memStore{m: map[string][]byte{}}
	reads := 0
	// list lists the file as a listing made later would: the file's
	// change time (set by the write, not by Chtimes) is then far enough
	// back not to be racy, unless racy.
	racy := false
	list := func() string {
		m := loadStatMemo(store)
		if !racy {
			m.since = time.Now().Add(2 * racyWindow)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		id := m.id(p, st, func() string {
			reads++
			data, _ := os.ReadFile(p)
			return manifest.BlobID(data)
		})
		m.save(store)
		return id
	}
	write("a: 1\n", time.Hour)
	first := list()
	if again := list(); again != first || reads != 1 {
		t.Fatalf("unchanged file: id %s then %s after %d reads, want the same id from one read", first, again, reads)
	}
	// The same size, the same modification time put back: the change
	// time still moves.
	time.Sleep(10 * time.Millisecond)
	write("a: 2\n", time.Hour)
	if edited := list(); edited == first || reads != 2 {
		t.Fatalf("edited file (same size and mtime): id %s (was %s) after %d reads, want a new id from a second read", edited, first, reads)
	}
	// Changed just now: racy, read on every listing until it settles.
	racy = true
	write("a: 3\n", 0)
	list()
	list()
	if reads != 4 {
		t.Errorf("a racy file was read %d times in two listings, want every time (4 in all)", reads)
	}
	if ids := loadStatMemo(store).old; len(ids) != 0 {
		t.Errorf("a racy file's id was kept: %v", ids)
	}
}
