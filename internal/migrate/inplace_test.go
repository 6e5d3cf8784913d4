package migrate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A CRLF file converted in place stays CRLF throughout, and converts as
// its LF twin does.
func TestInPlaceKeepsCRLF(t *testing.T) {
	lfText, err := os.ReadFile("testdata/mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	crlf := filepath.Join(dir, "crlf.yaml")
	lf := filepath.Join(dir, "lf.yaml")
	if err := os.WriteFile(crlf, bytes.ReplaceAll(lfText, []byte("\n"), []byte("\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lf, lfText, 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := Plan([]string{crlf, lf}, Options{InPlace: true})
	if err != nil || len(cs) != 2 {
		t.Fatalf("plan: %+v %v", cs, err)
	}
	if err := Apply(cs, false); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(crlf)
	want, _ := os.ReadFile(lf)
	if bytes.Count(got, []byte("\n")) != bytes.Count(got, []byte("\r\n")) {
		t.Errorf("LF line endings written into a CRLF file:\n%q", got)
	}
	if !bytes.Equal(bytes.ReplaceAll(got, []byte("\r\n"), []byte("\n")), want) {
		t.Errorf("the CRLF file converted differently from its LF twin:\n%s\n---\n%s", got, want)
	}
}

// A symlink is kept: migrate refuses to replace it with a file or to
// write through it, before writing anything.
func TestInPlaceRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	target := copyFile(t, "testdata/mixed.yaml", dir)
	orig, _ := os.ReadFile(target)
	other := copyFile(t, "testdata/mixed.yaml", t.TempDir())
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink("mixed.yaml", link); err != nil {
		t.Fatal(err)
	}
	cs, err := Plan([]string{other, link}, Options{InPlace: true})
	if err != nil || len(cs) != 2 {
		t.Fatalf("plan: %+v %v", cs, err)
	}
	var le *LinkError
	if err := Apply(cs, false); !errors.As(err, &le) || le.Path != link || le.Target != "mixed.yaml" {
		t.Fatalf("Apply = %v, want a LinkError naming %s", err, link)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if now, _ := os.ReadFile(target); !bytes.Equal(now, orig) {
		t.Error("written through the link")
	}
	if now, _ := os.ReadFile(other); !bytes.Equal(now, orig) {
		t.Error("a file was written before the refusal")
	}
}
