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

// LinkError is returned by Apply when a file to be written is a symlink:
// replacing it with a file would drop the link, and writing through it
// could reach outside the repository, so neither is done.
type LinkError struct{ Path, Target string }

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is a symlink to %s; migrate does not replace a link or write through it: run it on %s itself", e.Path, e.Target, e.Target)
}

// Apply writes the changes. New files that already exist are refused
// (ExistsError) unless force; the check covers every change before the
// first write, so a refusal writes nothing. Each file is written to a
// temporary file in its directory and renamed over the target, so a reader
// never sees half a file and an interrupted run leaves the old one. An
// in-place change (Path == From) is the point of --in-place and needs no
// force. A change whose file is a symlink is refused (LinkError), also
// before the first write.
func Apply(changes []Change, force bool) error {
	for _, c := range changes {
		if st, err := os.Lstat(c.Path); err == nil && st.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(c.Path)
			return &LinkError{Path: c.Path, Target: target}
		}
	}
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
