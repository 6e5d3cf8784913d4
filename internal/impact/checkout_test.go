package impact

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gitrev"
	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// TestCompareWithCheckout compares a tree with itself one commit earlier, the
// way diff --base does: removing a mirror drains, and the drain finding sits
// in the new tree.
func TestCompareWithCheckout(t *testing.T) {
	dir := t.TempDir()
	run := gittest.Runner(t, dir)
	write := testtree.Writer(t, dir)
	run("init", "-q", "-b", "main")
	write("clusters/prod/idms.yaml", testtree.AcmeIDMS)
	run("add", ".")
	run("commit", "-q", "-m", "one")
	write("clusters/prod/idms.yaml", strings.Replace(testtree.AcmeIDMS, "mirror-a", "mirror-b", 1))
	run("commit", "-q", "-am", "two")
	t.Chdir(filepath.Join(dir, "clusters"))

	snap, err := gitrev.Checkout("HEAD~1", []string{"prod"})
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	oldP, _, c1, err := OpenSide(project.Options{Paths: snap.Paths, ConfigPath: "none"})
	if err != nil {
		t.Fatal(err)
	}
	defer c1()
	newP, _, c2, err := OpenSide(project.Options{Paths: []string{"prod"}, ConfigPath: "none"})
	if err != nil {
		t.Fatal(err)
	}
	defer c2()
	res := Compare(oldP, newP, Options{OldRoots: snap.Paths, NewRoots: []string{"prod"}, Old: Old{Rev: "HEAD~1", Name: snap.Name}})
	if !res.Drain || res.Action != ActionDrain {
		t.Fatalf("removing a mirror must drain: %+v", res)
	}
	if f := res.Files[RegistriesConfPath]; !f.Changed || !strings.Contains(f.Diff, "-    location = \"mirror-a.example.com/acme\"") {
		t.Fatalf("diff:\n%s", f.Diff)
	}

	fs := drainAgainst(oldP.Clusters[0], project.Render(newP.Clusters[0]), placer{newP: newP})
	if len(fs) == 0 {
		t.Fatal("no drain-on-change finding")
	}
	for _, f := range fs {
		if f.Rule != RuleID || filepath.Base(f.File) != "idms.yaml" || f.Line == 0 {
			t.Errorf("finding not positioned in the new tree: %+v", f)
		}
	}
}
