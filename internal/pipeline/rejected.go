package pipeline

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/impact"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/rules"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// apiRules are the built-in rules for what the API server refuses: an
// object it refuses never reaches MCO, so the node files do not show it.
func apiRules() *check.Registry {
	reg, _ := check.NewRegistry()
	for _, r := range rules.All() {
		if r.Origin == check.OriginAPI {
			_ = reg.Add(r) // the ids are the registry's, unique
		}
	}
	return reg
}

// changes tells which files of the new side differ from the old side: a
// file whose counterpart (inOld) is missing or holds other bytes.
type changes struct {
	inOld func(file string) (string, bool)
	seen  map[string]bool
}

func (c *changes) changed(file string) bool {
	if file == "" || file == "-" {
		return false
	}
	if v, ok := c.seen[file]; ok {
		return v
	}
	v := true
	if old, ok := c.inOld(file); ok {
		a, errA := os.ReadFile(old)
		b, errB := safefs.ReadRegular(file)
		v = errA != nil || errB != nil || !bytes.Equal(a, b)
	}
	c.seen[file] = v
	return v
}

// reads reports whether cl reads a changed file.
func (c *changes) reads(cl *cluster.Cluster) bool {
	for _, in := range cl.Inputs {
		if c.changed(in) {
			return true
		}
	}
	return false
}

// rejected runs the API server's rules on the clusters of p that read a
// changed file and returns, per cluster, what they find on changed files
// (moved to the patch that wrote the value, suppressions honoured): what
// the API server would refuse of this change. Clusters o.Keep leaves out
// are not checked.
func rejected(p *project.Project, reg *check.Registry, ch *changes, o impact.Options) (func(*cluster.Cluster) []check.Finding, error) {
	engine := &check.Engine{Rules: reg, Config: p.Config, Source: p.Source, Access: p.Access(), Relocate: o.Relocate, AllReadersLinted: p.AllReadersLinted}
	by := map[*cluster.Cluster][]check.Finding{}
	for _, cl := range p.Clusters {
		if o.Keep != nil && !o.Keep(cl.Name) || !ch.reads(cl) {
			continue
		}
		fs, _, err := engine.Check(cl)
		if err != nil {
			return nil, err
		}
		for _, f := range engine.Settle(cl, fs) {
			if reg.Get(f.Rule) != nil && ch.changed(f.File) {
				by[cl] = append(by[cl], f)
			}
		}
	}
	return func(cl *cluster.Cluster) []check.Finding { return by[cl] }, nil
}

// underRoot maps a file under root to the same place under other; false
// for a file outside root.
func underRoot(root, other string) func(string) (string, bool) {
	realRoot := manifest.RealPath(root)
	return func(file string) (string, bool) {
		rel, in := manifest.Within(realRoot, manifest.RealPath(file))
		if !in {
			return "", false
		}
		return filepath.Join(other, rel), true
	}
}
