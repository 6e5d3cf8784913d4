package project

import "github.com/mirrorlint/mirrorlint/internal/manifest"

// Problems is every loading problem of the project, each once: the
// loader's and every cluster's own (a kustomization that fails to build is
// recorded on its cluster only). A command that answers for the whole tree
// (render, diff, resolve) treats the failures among them (manifest.Errors)
// as unreadable input, because half a tree gives a wrong answer.
func (p *Project) Problems() []manifest.Problem {
	var lists [][]manifest.Problem
	if p.Set != nil {
		lists = append(lists, p.Set.Problems)
	}
	for _, cl := range p.Clusters {
		lists = append(lists, cl.Problems)
	}
	return manifest.UniqueProblems(lists...)
}
