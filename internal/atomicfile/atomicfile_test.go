package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesAndLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "registries.conf")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil || string(got) != "new" {
		t.Fatalf("content %q, %v", got, err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestWriteIntoMissingDirectoryFailsWithoutTouchingAnything(t *testing.T) {
	if err := Write(filepath.Join(t.TempDir(), "no", "such", "file"), []byte("x"), 0o644); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}

// What WriteWith's (and WriteUnsynced's) function writes, in several
// writes, becomes the file; when it fails, the old file stays and no
// temporary file is left.
func TestWriteWithStreamsAndKeepsTheOldFileOnError(t *testing.T) {
	for name, write := range map[string]func(string, os.FileMode, func(io.Writer) error) error{"WriteWith": WriteWith, "WriteUnsynced": WriteUnsynced} {
		t.Run(name, func(t *testing.T) { testStreams(t, write) })
	}
}

func testStreams(t *testing.T, write func(string, os.FileMode, func(io.Writer) error) error) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pack")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := write(p, 0o644, func(w io.Writer) error {
		for i := range 3 {
			if _, err := w.Write(bytes.Repeat([]byte{byte('a' + i)}, 100<<10)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	want := append(append(bytes.Repeat([]byte("a"), 100<<10), bytes.Repeat([]byte("b"), 100<<10)...), bytes.Repeat([]byte("c"), 100<<10)...)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("content of %d bytes (%v), want the three writes, %d bytes", len(got), err, len(want))
	}
	boom := errors.New("boom")
	if err := write(p, 0o644, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("want the function's error, got %v", err)
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, want) {
		t.Errorf("a failed write changed the file: %d bytes", len(got))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}
