package impact

import (
	"github.com/mirrorlint/mirrorlint/internal/safefs"

	"bufio"
	"bytes"
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// placer puts findings about values the new tree no longer has where a
// reviewer sees the removal: a pull request shows, and GitHub annotates,
// files of the new tree only.
type placer struct {
	old  Old
	newP *project.Project // nil: no kustomization to fall back on
}

// removed places f, about the value at path in the old object o, in the
// new cluster cl: on the same object when it is still there (on the entry
// for the same source, whose mirrors lost one, else on the list that lost
// the entry), else on the kustomization that stopped including it, else on
// the file that held it when that file still exists. Otherwise f keeps no
// position; its message says where the value was.
func (p placer) removed(f *check.Finding, o *manifest.Object, path manifest.Path, cl *cluster.Cluster) {
	if n, np := counterpart(o, path, cl); n != nil {
		f.Position, f.Object, f.Path = n.Locate(np), check.ObjectRef{Kind: string(n.Kind), Name: n.Name}, np.String()
		return
	}
	newFile := p.old.newFile(o.File)
	if k := p.kustomization(newFile, cl); k != "" {
		f.Position = manifest.Position{File: k, Line: listLine(k), Column: 1}
		return
	}
	f.Position = p.old.inNewTree(o.File)
}

// counterpart finds, in cl, the object of o's kind and name, and in it the
// place of the value at path: for a mirror set's entry, the entry with the
// same source (its mirrors when a mirror was removed), else the list; for
// an Image list, the list.
func counterpart(o *manifest.Object, path manifest.Path, cl *cluster.Cluster) (*manifest.Object, manifest.Path) {
	var n *manifest.Object
	for _, c := range cl.Objects {
		if c.Known && c.Kind == o.Kind && c.Name == o.Name {
			n = c
			break
		}
	}
	if n == nil {
		return nil, nil
	}
	if len(path) >= 3 && path[0] == "spec" {
		if list, ok := path[1].(string); ok && list != "registrySources" {
			source := ""
			for _, v := range scopeValues(o) {
				if len(v.path) > 2 && v.path[2] == path[2] {
					source = v.source
					break
				}
			}
			for _, v := range scopeValues(n) {
				if v.source == source && v.value == source && len(v.path) > 2 {
					entry := manifest.Path{"spec", list, v.path[2]}
					if len(path) > 3 && path[3] == "mirrors" {
						return n, entry.Child("mirrors")
					}
					return n, entry
				}
			}
			return n, manifest.Path{"spec", list}
		}
		if len(path) >= 3 {
			return n, path[:3] // spec.registrySources.<list>
		}
	}
	return n, manifest.Path{"spec"}
}

// kustomization is the kustomization of cl that stopped including the
// file at newFile (its path in the new tree): the nearest one among the
// directories holding that path, else the cluster's own top
// kustomization. "" for a cluster no kustomization makes.
func (p placer) kustomization(newFile string, cl *cluster.Cluster) string {
	if p.newP == nil {
		return ""
	}
	d := cl
	if d.Source == "" || d.Source == cluster.FromPlain {
		return ""
	}
	var kusts []string
	for _, in := range d.Inputs {
		if kustomization.IsFileName(filepath.Base(in)) {
			kusts = append(kusts, in)
		}
	}
	if newFile != "" {
		want := manifest.RealPath(filepath.Dir(newFile))
		best, bestLen := "", -1
		for _, k := range kusts {
			dir := manifest.RealPath(filepath.Dir(k))
			if _, in := manifest.Within(dir, want); in && len(dir) > bestLen {
				best, bestLen = k, len(dir)
			}
		}
		if best != "" {
			return best
		}
	}
	for _, path := range d.Paths {
		if k := kustomization.Find(path); k != "" {
			return k
		}
	}
	return ""
}

// listLine is the line of the first list of references in a kustomization
// (resources, components, bases), where a dropped entry was; 1 when none.
func listLine(file string) int {
	data, err := safefs.ReadRegular(file)
	if err != nil {
		return 1
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		for _, key := range []string{"resources:", "components:", "bases:"} {
			if strings.HasPrefix(sc.Text(), key) {
				return line
			}
		}
	}
	return 1
}
