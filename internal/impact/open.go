package impact

import (
	"errors"
	"io/fs"
	"os"

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
