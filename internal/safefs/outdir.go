package safefs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrLinkInOutput is why a write or delete under an output directory was
// refused: a component of its path is a symlink (or not a directory), which
// a pull request can plant to make the tool write or delete elsewhere.
var ErrLinkInOutput = errors.New("is a symlink or not a directory inside the output directory; refusing to write or delete through it")

// OutDir is a directory the command line names for output (-o, --render).
// Every path below it is checked component by component with Lstat and
// never followed: a symlink anywhere under it is refused, files are created
// with O_NOFOLLOW where the system has it, and a delete removes only a
// regular file. The directory itself is the command line's to name and may
// be a link.
type OutDir struct{ root string }

// NewOutDir returns the output directory root, creating it if needed.
func NewOutDir(root string) (*OutDir, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	return &OutDir{root: root}, nil
}

// Path is where rel lands under the directory.
func (o *OutDir) Path(rel string) string { return filepath.Join(o.root, filepath.FromSlash(rel)) }

// ValidName reports whether a name (slash-separated) stays inside any
// directory it is joined to: not empty, not absolute, no "." or ".."
// element, no empty element, no backslash (a separator on Windows), and
// local on this system (no volume name or reserved device name).
func ValidName(name string) bool {
	return name != "." && fs.ValidPath(name) && !strings.Contains(name, `\`) && filepath.IsLocal(filepath.FromSlash(name))
}

// ClusterDir is the directory, relative to an output directory parent
// that holds several clusters, where the cluster name's files go: its name,
// or "." (parent itself) for the unnamed cluster of a tree's leftover
// files. A name that would leave parent is refused, never joined.
func ClusterDir(name, parent string) (string, error) {
	switch {
	case name == "":
		return ".", nil
	case !ValidName(name):
		return "", fmt.Errorf("cluster name %q is not a directory name inside %s", name, parent)
	}
	return name, nil
}

// dirs checks every directory component of rel under the root, creating the
// missing ones when create is set. It returns fs.ErrNotExist (wrapped) when
// one is missing and create is not set.
func (o *OutDir) dirs(rel string, create bool) error {
	if !ValidName(rel) {
		return fmt.Errorf("%s: not a path inside the output directory %s", rel, o.root)
	}
	parts := strings.Split(rel, "/")
	p := o.root
	for _, part := range parts[:len(parts)-1] {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist) && create:
			if err := os.Mkdir(p, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
			if fi, err = os.Lstat(p); err != nil {
				return err
			}
		case err != nil:
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s %w", p, ErrLinkInOutput)
		}
	}
	return nil
}

// MkdirAll creates the directory rel (and its parents) under the root.
func (o *OutDir) MkdirAll(rel string) error { return o.dirs(rel+"/x", true) }

// WriteFile replaces rel with data: a temporary file created beside it
// without following links, synced, and renamed over it, so that no reader
// sees half a file. An existing symlink or non-regular file at rel is
// refused rather than replaced.
func (o *OutDir) WriteFile(rel string, data []byte, mode os.FileMode) error {
	if err := o.dirs(rel, true); err != nil {
		return err
	}
	path := o.Path(rel)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s %w", path, ErrLinkInOutput)
	}
	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp"+hex.EncodeToString(suffix[:]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollowNoBlock, 0o600)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Remove deletes rel if it is a regular file reached without a link; a
// missing file is no error, anything else at rel is refused.
func (o *OutDir) Remove(rel string) error {
	if err := o.dirs(rel, false); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	path := o.Path(rel)
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s %w", path, ErrLinkInOutput)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// RemoveEmptyDir removes the directory rel when it is a real, empty
// directory; anything else is left alone.
func (o *OutDir) RemoveEmptyDir(rel string) {
	if o.dirs(rel, false) != nil {
		return
	}
	if fi, err := os.Lstat(o.Path(rel)); err == nil && fi.IsDir() {
		_ = os.Remove(o.Path(rel)) // fails unless empty
	}
}

// ReadDir lists the real directory rel; nothing when it is missing, a link,
// or reached through one.
func (o *OutDir) ReadDir(rel string) []fs.DirEntry {
	if o.dirs(rel+"/x", false) != nil {
		return nil
	}
	if fi, err := os.Lstat(o.Path(rel)); err != nil || !fi.IsDir() {
		return nil
	}
	entries, _ := os.ReadDir(o.Path(rel))
	return entries
}
