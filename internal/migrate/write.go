package migrate

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mirrorlint/mirrorlint/internal/atomicfile"
)

// ExistsError is returned by Apply when a file to be created exists and
// overwriting was not asked for.
type ExistsError struct{ Path string }

func (e *ExistsError) Error() string {
	return fmt.Sprintf("%s exists; use --force to overwrite it", e.Path)
}

// Apply writes the changes. New files that already exist are refused
// (ExistsError) unless force; the check covers every change before the
// first write, so a refusal writes nothing. Each file is written to a
// temporary file in its directory and renamed over the target, so a reader
// never sees half a file and an interrupted run leaves the old one. An
// in-place change (Path == From) is the point of --in-place and needs no
// force.
func Apply(changes []Change, force bool) error {
	if !force {
		for _, c := range changes {
			if c.Old != nil && c.Path != c.From {
				return &ExistsError{Path: c.Path}
			}
		}
	}
	for _, c := range changes {
		if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if st, err := os.Stat(c.Path); err == nil {
			mode = st.Mode().Perm()
		}
		if err := atomicfile.Write(c.Path, c.New, mode); err != nil {
			return err
		}
	}
	return nil
}
