package safefs

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Resolver finds the real paths of directories, each asked of the system
// once: a run resolves the path of every file it reads, and
// filepath.EvalSymlinks asks about every component of every path. It is
// for one run: a directory that becomes a link later is not seen. The
// zero value is ready to use, from any goroutine.
type Resolver struct {
	dirs sync.Map // absolute clean directory -> its real path
	// listed holds the directories the run listed (Root.ReadRealDir), by
	// real path: what a listing showed as a directory or a regular file
	// (not a link) is its own real path, so it need not be asked again.
	listed sync.Map
}

// listedAs is the type the run's listing of the real directory dir gave
// its entry name, false when dir was not listed or has no such entry.
func (r *Resolver) listedAs(dir, name string) (fs.FileMode, bool) {
	v, ok := r.listed.Load(dir)
	if !ok {
		return 0, false
	}
	entries := v.(*dirListing).entries
	i, found := slices.BinarySearchFunc(entries, name, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	if !found {
		return 0, false
	}
	return entries[i].Type(), true
}

// RealDir is the real path of the absolute, clean directory dir: from the
// resolver's cache, else its parent's real path (recursively) and one Lstat of
// its own name, so that a tree of one file per directory still costs one
// system call per directory. A directory that is a link, or that cannot
// be asked, is resolved by filepath.EvalSymlinks; false when that fails.
func (r *Resolver) RealDir(dir string) (string, bool) {
	if v, ok := r.dirs.Load(dir); ok {
		return v.(string), true
	}
	real := ""
	parent := filepath.Dir(dir)
	if parent == dir {
		real = dir // the file system's root
	} else if rp, ok := r.RealDir(parent); ok {
		candidate := filepath.Join(rp, filepath.Base(dir))
		if t, ok := r.listedAs(rp, filepath.Base(dir)); ok && t.IsDir() {
			real = candidate
		} else if fi, err := os.Lstat(candidate); err == nil && fi.IsDir() {
			real = candidate
		}
	}
	if real == "" {
		var err error
		if real, err = filepath.EvalSymlinks(dir); err != nil {
			return "", false
		}
	}
	v, _ := r.dirs.LoadOrStore(dir, real)
	return v.(string), true
}

// Real is realAbs with the directory from the cache: a run resolves every
// file it reads, and filepath.EvalSymlinks asks the system about every
// component of every path (ten thousand files a directory deep each were
// 0.25 s of a run's CPU). The file itself is asked (one Lstat) unless the
// run's listing of its directory showed it as a regular file: a link there
// is resolved whole, and any error is filepath.EvalSymlinks' own, word for
// word. (A reader opens what Real gives without following a link, so a
// file swapped for a link after the listing is refused, not followed.)
func (r *Resolver) Real(p string) (string, error) {
	abs, err := Abs(p)
	if err != nil {
		return "", err
	}
	if full, t, listed, ok := r.inRealDir(abs); ok {
		if listed && t.IsRegular() {
			return full, nil
		}
		if fi, err := os.Lstat(full); err == nil && fi.Mode()&os.ModeSymlink == 0 {
			return full, nil
		}
	}
	return filepath.EvalSymlinks(abs)
}

// inRealDir names abs inside its directory's real path (full, abs's own
// real path unless abs is a link), with what the run's listing of that
// directory shows abs as (t, when listed); false for a name no directory
// holds ("", ".", "..") or a directory that does not resolve.
func (r *Resolver) inRealDir(abs string) (full string, t fs.FileMode, listed, ok bool) {
	dir, base := filepath.Split(abs)
	if base == "" || base == "." || base == ".." {
		return "", 0, false, false
	}
	rd, ok := r.RealDir(filepath.Clean(dir))
	if !ok {
		return "", 0, false, false
	}
	t, listed = r.listedAs(rd, base)
	return filepath.Join(rd, base), t, listed, true
}

// RealPath is p absolute and symlink-free as far as it exists, as
// manifest.RealPath gives it (Real, and the absolute path when that
// fails).
func (r *Resolver) RealPath(p string) string {
	abs, err := Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if real, err := r.Real(abs); err == nil {
		return real
	}
	return abs
}

// listedPath is p's real path when the run's listing of its (resolved)
// directory shows it as a directory or a regular file, with that type;
// false otherwise (not listed, a link, or a name no listing holds, such
// as "..").
func (r *Root) listedPath(p string) (string, fs.FileMode, bool) {
	if r == nil {
		return "", 0, false
	}
	abs, err := Abs(p)
	if err != nil {
		return "", 0, false
	}
	full, t, listed, ok := r.resolver.inRealDir(abs)
	if !ok || !listed || !(t.IsDir() || t.IsRegular()) {
		return "", 0, false
	}
	return full, t, true
}

// RealPath is Resolver.RealPath with the root's resolver, which the run's
// reads and directory listings have taught; a nil Root resolves every
// component (manifest.RealPath).
func (r *Root) RealPath(p string) string {
	if r == nil {
		var fresh Resolver
		return fresh.RealPath(p)
	}
	return r.resolver.RealPath(p)
}
