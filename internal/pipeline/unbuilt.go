package pipeline

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// unbuilt repeats, on each given file, the errors that left a cluster
// reading it unchecked (a kustomization that does not build, an entry that
// is missing): on the pre-commit path the file is what is reported on, and
// the error itself sits in a kustomization that is not being committed, so
// without this the commit would pass as "no problems found" with the
// cluster never checked. dropped are the findings filter left out.
func (s *scope) unbuilt(p *project.Project, all, kept []check.Finding) []check.Finding {
	if s.only == nil {
		return nil
	}
	reported := make(map[findingKey]bool, len(kept))
	for _, k := range kept {
		reported[keyOf(k)] = true
	}
	var out []check.Finding
	for _, f := range all {
		if f.Rule != check.ProblemRule.ID || f.Severity != check.Error || !kustomization.IsFileName(filepath.Base(f.File)) ||
			reported[keyOf(f)] {
			continue // only a kustomization that does not build leaves its cluster unchecked
		}
		for _, cl := range p.Clusters {
			if !slices.Contains(f.Clusters, cl.Name) && !(len(f.Clusters) == 0 && len(p.Clusters) == 1) {
				continue
			}
			for _, in := range cl.Inputs {
				if !s.covers(in) {
					continue
				}
				c := f
				c.Position = manifest.Position{File: in, Line: 1, Column: 1}
				c.Message = fmt.Sprintf("cluster %s, which reads this file, is not checked: %s (at %s)", cl.Name, f.Message, f.Position)
				c.Related = append([]check.Location{{Position: f.Position}}, f.Related...)
				c.Clusters = []string{cl.Name}
				out = append(out, c)
			}
		}
	}
	return out
}

// findingKey is what makes two findings the same one for unbuilt: the
// rule, the place and the message.
type findingKey struct {
	rule, message string
	pos           manifest.Position
}

func keyOf(f check.Finding) findingKey {
	return findingKey{rule: f.Rule, message: f.Message, pos: f.Position}
}
