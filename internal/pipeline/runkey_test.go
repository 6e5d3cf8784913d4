package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The listing a run's key was made from holds while nothing it read from
// the file system changes, and stops holding at an edit of a file git
// gives no id for, a link moved elsewhere, or a root replaced; and
// whenever it stops holding, the key made again is another key.
func TestListingHoldsUntilAnEdit(t *testing.T) {
	t.Parallel()
	checks := cachingChecks(t, policy.Options{Builtin: true})
	dir := t.TempDir()
	const two = "kind: ConfigMap\nmetadata:\n  name: two\n"
	write := func(rel, text string) func() error {
		return func() error { return os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644) }
	}
	testtree.WriteAt(t, dir, map[string]string{
		"a/one.yaml":      "kind: ConfigMap\nmetadata:\n  name: one\n",
		"a/two.yaml":      two,
		"b/tracked.yaml":  "kind: ConfigMap\nmetadata:\n  name: tracked\n",
		"b/elsewhere.txt": "x\n",
	})
	link := filepath.Join(dir, "a/link.yaml")
	if err := os.Symlink("one.yaml", link); err != nil {
		t.Fatal(err)
	}
	tracked := filepath.Join(dir, "b/tracked.yaml")
	key := func() (string, *listing) {
		req := Request{Runs: &memStore{m: map[string][]byte{}}, Options: project.Options{
			Paths: []string{dir}, Config: &config.Config{}, Access: safefs.New(0, dir),
			// One file with an id from git: its line is git's answer.
			Blobs: func(p string) (string, bool) { return "0123", p == tracked },
		}}
		sc, err := newScope(req)
		if err != nil {
			t.Fatal(err)
		}
		k, l := runKey(checks, req, sc)
		if k == "" || l == nil {
			t.Fatal("no key for a run that may be kept")
		}
		return k, l
	}
	base, l := key()
	if !l.holds() {
		t.Fatal("the listing does not hold over an unchanged tree")
	}
	if again, _ := key(); again != base {
		t.Fatal("the same tree gave two keys")
	}
	for _, edit := range []struct {
		what       string
		do, undo   func() error
		stillHolds bool
	}{
		{"an untracked file's content", write("a/two.yaml", "kind: ConfigMap\n"), write("a/two.yaml", two), false},
		{"a link's target", func() error { return replaceLink(link, "two.yaml") }, func() error { return replaceLink(link, "one.yaml") }, false},
		{"a root", func() error { return os.Rename(dir, dir+".moved") }, func() error { return os.Rename(dir+".moved", dir) }, false},
		// A file git gave an id for is what git said it is: the loader
		// stores what it read under the id of what it read.
		{"a tracked file", write("b/tracked.yaml", "kind: Secret\n"), func() error { return nil }, true},
	} {
		_, l := key()
		if err := edit.do(); err != nil {
			t.Fatal(err)
		}
		if got := l.holds(); got != edit.stillHolds {
			t.Errorf("after an edit of %s the listing holds: %v, want %v", edit.what, got, edit.stillHolds)
		}
		if !edit.stillHolds && edit.what != "a root" {
			if k, _ := key(); k == base {
				t.Errorf("after an edit of %s the key is the same", edit.what)
			}
		}
		if err := edit.undo(); err != nil {
			t.Fatal(err)
		}
		if !l.holds() && !edit.stillHolds {
			t.Errorf("after %s was put back the listing does not hold", edit.what)
		}
	}
}

func replaceLink(link, target string) error {
	if err := os.Remove(link); err != nil {
		return err
	}
	return os.Symlink(target, link)
}
