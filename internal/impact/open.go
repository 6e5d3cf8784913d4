package impact

import (
	"errors"
	"io/fs"
	"os"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// OpenSide opens one side of a comparison. Paths that do not exist are a
// tree with nothing in it (a directory added or deleted by the change), not
// an error: they are returned in missing for the caller to mention. The
// returned cleanup must be called when done with the project.
func OpenSide(opts project.Options) (p *project.Project, missing []string, cleanup func(), err error) {
	cleanup = func() {}
	var keep []string
	for _, path := range opts.Paths {
		if path == "-" {
			keep = append(keep, path)
			continue
		}
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, path)
			continue
		}
		keep = append(keep, path)
	}
	if len(keep) == 0 {
		// project.Open reads "." for no paths; give it an empty directory
		// instead so that the side renders as a cluster without objects.
		dir, err := os.MkdirTemp("", "mirrorlint-empty-")
		if err != nil {
			return nil, nil, cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		keep = []string{dir}
	}
	opts.Paths = keep
	p, err = project.Open(opts)
	if err != nil {
		cleanup()
		return nil, nil, func() {}, err
	}
	return p, missing, cleanup, nil
}

// Problems lists what keeps a side from being read whole: the loader's
// problems and every cluster's own (a kustomization that fails to build is
// recorded on its cluster only, not in the loader's set), each once.
// Comparing such a side would compare against half a tree, or against
// nothing when the build failed, and give a verdict about a change nobody
// made: a caller must treat a non-empty result as unreadable input.
func Problems(p *project.Project) []manifest.Problem {
	var out []manifest.Problem
	seen := map[string]bool{}
	add := func(prs []manifest.Problem) {
		for _, pr := range prs {
			if k := pr.Code + "\x00" + pr.String(); !seen[k] {
				seen[k] = true
				out = append(out, pr)
			}
		}
	}
	add(p.Set.Problems)
	for _, cl := range p.Clusters {
		add(cl.Problems)
	}
	return out
}
