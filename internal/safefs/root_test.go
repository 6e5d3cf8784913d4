package safefs

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// hostileTree is a repository beside a secret it must never read.
func hostileTree(t *testing.T) (repo, secret string) {
	t.Helper()
	base := t.TempDir()
	repo = filepath.Join(base, "repo")
	secret = filepath.Join(base, "secret.yaml")
	testtree.WriteFile(t, secret, "token: s3cr3t\n")
	testtree.WriteFile(t, filepath.Join(repo, "ok.yaml"), "a: 1\n")
	return repo, secret
}

func TestReadRefusesWhatLeavesTheRoot(t *testing.T) {
	repo, secret := hostileTree(t)
	testtree.Link(t, "/dev/zero", filepath.Join(repo, "clusters/x/zero.yaml"))
	testtree.Link(t, secret, filepath.Join(repo, "abs.yaml"))
	testtree.Link(t, "../secret.yaml", filepath.Join(repo, "rel.yaml"))
	testtree.Link(t, "..", filepath.Join(repo, "up")) // a directory link out of the tree
	r := New(0, repo)
	for _, p := range []string{
		filepath.Join(repo, "clusters/x/zero.yaml"),
		filepath.Join(repo, "abs.yaml"),
		filepath.Join(repo, "rel.yaml"),
		filepath.Join(repo, "up/secret.yaml"),
		filepath.Join(repo, "clusters/../../secret.yaml"),
		secret,
	} {
		_, err := r.ReadFile(p)
		if !errors.Is(err, ErrOutside) {
			t.Errorf("ReadFile(%s) = %v, want a refusal as outside the repository", p, err)
		}
	}
	if b, err := r.ReadFile(filepath.Join(repo, "ok.yaml")); err != nil || string(b) != "a: 1\n" {
		t.Errorf("ok.yaml = %q, %v", b, err)
	}
}

func TestReadFollowsLinksThatStayInside(t *testing.T) {
	repo, _ := hostileTree(t)
	testtree.WriteFile(t, filepath.Join(repo, "base/a.yaml"), "b: 2\n")
	testtree.Link(t, "../base", filepath.Join(repo, "overlay/base"))
	r := New(0, repo)
	if b, err := r.ReadFile(filepath.Join(repo, "overlay/base/a.yaml")); err != nil || string(b) != "b: 2\n" {
		t.Errorf("read through an inside link = %q, %v", b, err)
	}
}

func TestReadRefusesDevicesAndFIFOs(t *testing.T) {
	repo, _ := hostileTree(t)
	fifo := filepath.Join(repo, "pipe.yaml")
	if err := testtree.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	r := New(0, repo)
	r.Allow("/dev/zero") // even named on the command line, a device is no manifest
	for _, p := range []string{fifo, "/dev/zero"} {
		if _, err := r.ReadFile(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s) = %v, want not a regular file", p, err)
		}
	}
	var nilRoot *Root
	if _, err := nilRoot.ReadFile("/dev/zero"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("unconfined ReadFile(/dev/zero) = %v, want not a regular file", err)
	}
}

func TestReadCapsSizeAndBudget(t *testing.T) {
	repo, _ := hostileTree(t)
	testtree.WriteFile(t, filepath.Join(repo, "big.yaml"), strings.Repeat("x", 100))
	testtree.WriteFile(t, filepath.Join(repo, "small.yaml"), strings.Repeat("y", 40))
	r := New(50, repo)
	if _, err := r.ReadFile(filepath.Join(repo, "big.yaml")); !errors.Is(err, ErrTooLarge) {
		t.Errorf("big file: %v, want over the size limit", err)
	}
	r.Budget = &Budget{Max: 60}
	if _, err := r.ReadFile(filepath.Join(repo, "small.yaml")); err != nil {
		t.Fatal(err)
	}
	if r.Budget.Spent() {
		t.Error("the budget is spent after a read within it")
	}
	if _, err := r.ReadFile(filepath.Join(repo, "small.yaml")); !errors.Is(err, ErrBudget) {
		t.Errorf("second read past the budget: %v, want the budget refusal", err)
	}
	if !r.Budget.Spent() {
		t.Error("the budget is not spent after it refused a read")
	}
}

// Spent says a budget refused something, for each of them: objects past
// MaxObjects, and none for a run without budgets.
func TestBudgetSpentByObjects(t *testing.T) {
	var none *Budget
	if none.Spent() {
		t.Error("no budget is spent")
	}
	b := &Budget{MaxObjects: 3}
	if b.TakeObjects(3); b.Spent() {
		t.Error("spent at its bound")
	}
	if b.TakeObjects(1); !b.Spent() {
		t.Error("not spent past its bound")
	}
}

func TestAllowNamesOneFileOnly(t *testing.T) {
	repo, secret := hostileTree(t)
	other := filepath.Join(filepath.Dir(secret), "other.yaml")
	testtree.WriteFile(t, other, "c: 3\n")
	r := New(0, repo)
	r.Allow(secret)
	if _, err := r.ReadFile(secret); err != nil {
		t.Errorf("a file the command line names is read: %v", err)
	}
	if _, err := r.ReadFile(other); !errors.Is(err, ErrOutside) {
		t.Errorf("its neighbour: %v, want refused", err)
	}
}

func TestResolveRefusesURLs(t *testing.T) {
	for _, p := range []string{"http://127.0.0.1/x", "https://example.com/x.yaml", "git@github.com:a/b", "github.com/a/b//c"} {
		if _, err := New(0, t.TempDir()).Resolve(p); !errors.Is(err, ErrURL) {
			t.Errorf("Resolve(%s) = %v, want a URL refusal", p, err)
		}
	}
}
