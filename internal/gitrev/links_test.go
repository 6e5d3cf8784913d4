package gitrev

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// Committed links that read as inside the snapshot but resolve outside it
// through another link are not recreated; a link that resolves inside is.
func TestCheckoutLinksResolvedNotSpelled(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the snapshot's parent, where the escape lands
	if err := os.WriteFile(filepath.Join(tmp, "secret.yaml"), []byte("SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run := gittest.Runner(t, dir)
	write := testtree.Writer(t, dir)
	run("init", "-q", "-b", "main")
	write("sub/idms.yaml", testtree.AcmeIDMS)
	for link, target := range map[string]string{
		"sub/up":      "..",                 // the snapshot's root: inside
		"sub/evil":    "up/../secret.yaml",  // spelled sub/secret.yaml, resolves to TMPDIR/secret.yaml
		"sub/evildir": "up/..",              // spelled sub, resolves to TMPDIR
		"sub/good":    "up/sub/idms.yaml",   // resolves inside
		"sub/z/deep":  "../up/../../x.yaml", // spelled sub/x.yaml... resolves outside
	} {
		p := filepath.Join(dir, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	run("add", ".")
	run("commit", "-q", "-m", "links")
	t.Chdir(dir)
	snap, err := Checkout("HEAD", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	for _, l := range []string{"sub/evil", "sub/evildir", "sub/z/deep"} {
		if _, err := os.Lstat(filepath.Join(snap.Dir, filepath.FromSlash(l))); err == nil {
			t.Errorf("%s was recreated: it resolves outside the snapshot", l)
		}
	}
	for _, l := range []string{"sub/up", "sub/good"} {
		if _, err := os.Stat(filepath.Join(snap.Dir, filepath.FromSlash(l))); err != nil {
			t.Errorf("%s, inside the snapshot, is missing: %v", l, err)
		}
	}
}
