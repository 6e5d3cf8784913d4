package contentcache

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestEntriesSurviveAReopen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := Open(dir, "v1", "f1")
	if _, ok := p.Get("a"); ok {
		t.Fatal("a new pack has an entry")
	}
	p.Put("a", []byte("alpha"))
	p.Put("b", nil)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !p.Fresh() {
		t.Error("a pack opened on no file, then written, is not fresh for the run that opened it")
	}
	q := Open(dir, "v1", "f1")
	if q.Fresh() {
		t.Error("a pack read with entries says it is fresh")
	}
	if v, ok := q.Get("a"); !ok || string(v) != "alpha" {
		t.Errorf("a = %q, %v", v, ok)
	}
	if v, ok := q.Get("b"); !ok || len(v) != 0 {
		t.Errorf("b = %q, %v", v, ok)
	}
}

// packFile writes a pack of version v1 and format f1 holding a, and
// returns its path.
func packFile(t *testing.T, dir string) string {
	t.Helper()
	p := Open(dir, "v1", "f1")
	p.Put("a", []byte("alpha"))
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	m, _ := filepath.Glob(filepath.Join(dir, "pack-*"))
	if len(m) != 1 {
		t.Fatalf("packs %v", m)
	}
	return m[0]
}

func TestADamagedPackIsIgnored(t *testing.T) {
	t.Parallel()
	for name, damage := range map[string]func([]byte) []byte{
		"truncated":      func(b []byte) []byte { return b[:len(b)-5] },
		"cut in a entry": func(b []byte) []byte { return b[:len(magic)+12] },
		"a byte flipped": func(b []byte) []byte { b[len(b)-40] ^= 1; return b },
		"its checksum":   func(b []byte) []byte { b[len(b)-1] ^= 0x80; return b },
		"empty":          func([]byte) []byte { return nil },
		"another tool":   func(b []byte) []byte { return append([]byte("something else\n"), b...) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := packFile(t, dir)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, damage(data), 0o644); err != nil {
				t.Fatal(err)
			}
			q := Open(dir, "v1", "f1")
			if v, ok := q.Get("a"); ok {
				t.Errorf("a damaged pack answered %q", v)
			}
			if !q.Fresh() {
				t.Error("a damaged pack is not fresh: a run would wait for keys it cannot find")
			}
		})
	}
}

func TestAnotherVersionOrFormatReadsNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := packFile(t, dir)
	for _, vf := range [][2]string{{"v2", "f1"}, {"v1", "f2"}, {"v1\x00f", "1"}} {
		if _, ok := Open(dir, vf[0], vf[1]).Get("a"); ok {
			t.Errorf("version %q format %q read the pack of v1/f1", vf[0], vf[1])
		}
	}
	// The same bytes under another pack's name: the header says whose
	// they are.
	other := Open(dir, "v2", "f1")
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(other.path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := Open(dir, "v2", "f1").Get("a"); ok {
		t.Error("a pack copied under another version's name was trusted")
	}
}

// Runs sharing a directory may write at once: the pack left is one run's
// whole pack, never a mixture or a torn file.
func TestConcurrentRunsLeaveACompletePack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var wg sync.WaitGroup
	for r := range 8 {
		wg.Go(func() {
			p := Open(dir, "v1", "f1")
			for k := range 50 {
				p.Put(fmt.Sprintf("run%d-%d", r, k), []byte(fmt.Sprint(r, k)))
			}
			if err := p.Close(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	p := Open(dir, "v1", "f1")
	runs := 0
	for r := range 8 {
		n := 0
		for k := range 50 {
			if v, ok := p.Get(fmt.Sprintf("run%d-%d", r, k)); ok {
				if string(v) != fmt.Sprint(r, k) {
					t.Fatalf("run %d entry %d = %q", r, k, v)
				}
				n++
			}
		}
		if n != 0 && n != 50 {
			t.Errorf("run %d: %d of its 50 entries", r, n)
		}
		if n == 50 {
			runs++
		}
	}
	if runs == 0 {
		t.Error("no run's entries were kept")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

func TestAPackWithoutNewsIsNotRewritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := packFile(t, dir)
	before, _ := os.Stat(path)
	p := Open(dir, "v1", "f1")
	p.Get("a")
	p.Put("a", []byte("alpha"))
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(path)
	if !os.SameFile(before, after) {
		t.Error("the pack was written again though nothing changed")
	}
}

// On Linux the executable's Go build ID names the build; without it a
// development build would have no version and no cache.
func TestVersionNamesThisBuild(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the build ID is read from ELF executables")
	}
	if id := buildID(); len(id) < 20 || !strings.Contains(Version(), id) {
		t.Errorf("build ID %q, version %q", id, Version())
	}
}
