package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"prod": true, "east/prod": true, "mirror.example.com:5000": true,
		"": false, ".": false, "..": false, "../x": false, "a/../../x": false, "/etc": false,
		"a//b": false, "a/": false, `..\x`: false, `a\b`: false,
	} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}

// A pull request can commit links into a directory a later step renders
// into; nothing is written or deleted through them.
func TestOutDirNeverFollowsLinks(t *testing.T) {
	outside := t.TempDir()
	victim := filepath.Join(outside, "registries.conf")
	if err := os.WriteFile(victim, []byte("VICTIM"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for link, target := range map[string]string{"dirlink": outside, "filelink.conf": victim, "sub/registries.conf": victim} {
		p := filepath.Join(root, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	o, err := NewOutDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"dirlink/registries.conf", "dirlink/new/x", "filelink.conf", "sub/registries.conf"} {
		if err := o.WriteFile(rel, []byte("WRITTEN"), 0o644); !errors.Is(err, ErrLinkInOutput) {
			t.Errorf("WriteFile(%s) = %v, want a refusal", rel, err)
		}
		if err := o.Remove(rel); rel != "dirlink/new/x" && !errors.Is(err, ErrLinkInOutput) {
			t.Errorf("Remove(%s) = %v, want a refusal", rel, err)
		}
	}
	for _, rel := range []string{"../x", "/etc/x", "a/../../x"} {
		if err := o.WriteFile(rel, []byte("WRITTEN"), 0o644); err == nil {
			t.Errorf("WriteFile(%s) should be refused", rel)
		}
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "VICTIM" {
		t.Fatalf("the file outside was changed: %q, %v", b, err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Fatalf("something was written outside: %v", entries)
	}
	if o.ReadDir("dirlink") != nil {
		t.Error("ReadDir lists a linked directory")
	}
	// Ordinary writes and deletes still work.
	if err := o.WriteFile("a/b/c.conf", []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := o.Remove("a/b/c.conf"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, "a", "b", "c.conf")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("not removed: %v", err)
	}
}
