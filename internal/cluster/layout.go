package cluster

import (
	"path/filepath"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Layouts are the directory names under which each child directory is one
// cluster, wherever they sit in the repository: clusters/hub,
// overlays/prod-east, sites/site-0001, environments/staging, envs/dev. A
// file no kustomization reaches belongs to the cluster of the innermost
// such directory on its path (environments/prod/clusters/east/... is
// clusters/east's, inside environments/prod), with every subdirectory:
// clusters/hub/config/image.yaml and clusters/hub/mirrors/idms.yaml are
// both clusters/hub.
var Layouts = []string{"clusters", "overlays", "sites", "environments", "envs"}

var layoutNames = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range Layouts {
		m[l] = true
	}
	return m
}()

// groupKind says which rule of plainGroup placed a file.
type groupKind int

const (
	groupRoot groupKind = iota
	// groupTop: the files under one top-level directory of the tree.
	groupTop
	groupLayout
	groupBelowKustomization
)

type group struct {
	dir  string // absolute
	kind groupKind
	// layout is the layout directory's name for groupLayout ("clusters").
	layout string
}

// plainGroup is the cluster a file no kustomization reaches belongs to.
// It depends on the file's own path and the kustomization directories
// above it, never on any other file, so adding a file elsewhere cannot
// move this one to another cluster:
//
//  1. below a layout directory (clusters/<name>/…), the <name> directory;
//  2. otherwise the top-level directory holding it (telco-ran/…,
//     .tekton/…): directories side by side at the top of a repository are
//     its separate concerns (CI files, reference designs, apps), so no
//     cross-object finding joins them; a file lying at the top itself is
//     the root's (".");
//  3. in both cases, when a directory between that group and the file
//     holds a kustomization that does not read the file, the file's group
//     is the directory just below the deepest such kustomization
//     (overlays/prod/unused/ is not part of overlays/prod, which kustomize
//     builds without it).
//
// abs and root are absolute; isKust reports whether a directory holds a
// kustomization. wholeTree turns rule 2 off: a tree with no kustomization
// and no layout at all is one cluster, as `oc apply -R -f` applies it.
func plainGroup(root, abs string, isKust func(dir string) bool, wholeTree bool) group {
	dir := filepath.Dir(abs)
	rel, in := manifest.Within(root, dir)
	if !in {
		return group{dir: dir, kind: groupRoot}
	}
	var comps []string
	if rel != "." {
		comps = strings.Split(filepath.ToSlash(rel), "/")
	}
	g := group{dir: root, kind: groupRoot}
	if len(comps) > 0 && !wholeTree {
		g = group{dir: filepath.Join(root, comps[0]), kind: groupTop}
	}
	start, cur := 0, root
	for i := len(comps) - 2; i >= 0; i-- {
		if layoutNames[comps[i]] {
			g = group{dir: filepath.Join(root, filepath.FromSlash(strings.Join(comps[:i+2], "/"))), kind: groupLayout, layout: comps[i]}
			start, cur = i+2, g.dir
			break
		}
	}
	// The deepest kustomization directory from the group's layout (or the
	// root) down to (not including) the file's own directory splits the
	// group.
	for j := start; j <= len(comps); j++ {
		if j > start {
			cur = filepath.Join(cur, comps[j-1])
		}
		if j < len(comps) && isKust(cur) {
			g = group{dir: filepath.Join(cur, comps[j]), kind: groupBelowKustomization}
		}
	}
	return g
}

// reason words a group for `mirrorlint clusters`.
func (g group) reason(names *namer) string {
	switch g.kind {
	case groupLayout:
		return "files under " + g.layout + "/" + filepath.Base(g.dir) + " that no kustomization reaches (each directory in " + g.layout + "/ is a cluster)"
	case groupBelowKustomization:
		return "files below the kustomization in " + names.display(filepath.Dir(g.dir)) + " that it does not read"
	case groupTop:
		return "files under " + filepath.Base(g.dir) + "/ outside the cluster layouts (" + strings.Join(Layouts, "/, ") + "/) that no kustomization reaches: one cluster per top-level directory"
	}
	return "files at the top of the tree that no kustomization reaches: one cluster beside those of the top-level directories"
}

// leftover reports whether g is a group of files outside every layout and
// kustomization: the root's own files or a top-level directory's.
func (g *group) leftover() bool { return g != nil && (g.kind == groupRoot || g.kind == groupTop) }
