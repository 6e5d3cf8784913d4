package impact

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
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
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, path)
			continue
		}
		keep = append(keep, path)
	}
	if len(keep) == 0 && opts.Stream == nil {
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

// ConfigAt is the config of the old tree, so that the clusters it declares
// are read from the old tree, not from the working tree: the config file
// found at path (where the working tree's config file, cfg, sits in the
// old tree, whose top level is root), or when the old tree has none
// there, cfg read as if it were at path. A run without a config file keeps
// cfg. When cfg was found in the tree rather than named with --config, the
// old file is as much the tree's as the new one, so it gets the same trust
// rule: what would widen the run is removed and listed in its Refused,
// judged against root.
func ConfigAt(cfg *config.Config, path, root string) (*config.Config, error) {
	if cfg == nil || cfg.Path == "" || path == "" {
		return cfg, nil
	}
	if _, err := os.Stat(path); err == nil {
		old, err := config.Load(path)
		if err != nil {
			return nil, fmt.Errorf("the config file as it was: %w", err)
		}
		if cfg.Distrusted {
			old.Refused = old.Distrust(root, policy.DefaultTimeout, policy.DefaultMemory>>20)
		}
		return old, nil
	}
	moved := *cfg
	moved.Path = path
	moved.Refused = nil // reported with the working tree's config
	return &moved, nil
}
