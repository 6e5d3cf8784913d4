package safefs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Why a read was refused; test with errors.Is.
var (
	ErrOutside    = errors.New("outside the repository")
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("over the file size limit")
	ErrBudget     = errors.New("over the run's read budget")
	ErrMemory     = errors.New("over the run's memory budget")
	ErrURL        = errors.New("a URL; mirrorlint never fetches")
)

// DefaultMaxFileSize is the per-file cap when none is given (the default
// of --max-file-size, of the library and of the loaders). Real manifests
// are kilobytes; the largest real-world ICSP we know of (630 entries) is
// under 100 KiB, so 8 MiB leaves room while keeping one hostile file from
// costing gigabytes once parsed into nodes.
const DefaultMaxFileSize int64 = 8 << 20

// Refusal is a read the layer refused: the path as asked for, and why.
type Refusal struct {
	Path string
	Err  error  // one of the Err* values above
	Real string // the resolved path, when it differs and is worth saying
	Max  int64  // the limit, for ErrTooLarge and ErrBudget
	Size int64  // the file's size for ErrTooLarge; -1 when it grew while read
	// Limit words the memory budget, for ErrMemory.
	Limit string
}

func (r *Refusal) Error() string {
	switch {
	case errors.Is(r.Err, ErrOutside) && r.Real != "" && r.Real != r.Path:
		return fmt.Sprintf("%s resolves to %s, %v; not read", r.Path, r.Real, r.Err)
	case errors.Is(r.Err, ErrTooLarge):
		return fmt.Sprintf("%s is %v (%d bytes); not read: raise --max-file-size or exclude the file", r.Path, r.Err, r.Max)
	case errors.Is(r.Err, ErrMemory):
		return fmt.Sprintf("%s: %v (the heap grew by more than %s); not read: lint the tree in parts, one run per directory", r.Path, r.Err, r.Limit)
	case errors.Is(r.Err, ErrBuildResources), errors.Is(r.Err, ErrBuildWork):
		return fmt.Sprintf("%s: %v, whose cost grows faster than their square (5,000 take about 17 s); not read, so the build is not run; split the kustomization", r.Path, r.Err)
	case errors.Is(r.Err, ErrBudget):
		return fmt.Sprintf("%s: %v (%d bytes read in all); not read", r.Path, r.Err, r.Max)
	}
	return fmt.Sprintf("%s is %v; not read", r.Path, r.Err)
}

func (r *Refusal) Unwrap() error { return r.Err }

// Root is the set of places a run may read: directories (the repository
// root) and single files (paths the command line names), each held as its
// real, absolute path. A nil *Root confines nothing but still reads
// regular files only, under DefaultMaxFileSize.
type Root struct {
	dirs  []string
	files map[string]bool
	// MaxFileSize caps one file; 0 is DefaultMaxFileSize.
	MaxFileSize int64
	// Budget, when set, caps the bytes read by the whole run.
	Budget *Budget
	// resolver holds the real path of each directory a path was
	// resolved in (realPath): a directory's links are asked once per run.
	resolver Resolver

	mu sync.Mutex
}

// New is a Root over dirs (usually the repository's top level), capping
// each file at maxFileSize (0: DefaultMaxFileSize).
func New(maxFileSize int64, dirs ...string) *Root {
	r := &Root{files: map[string]bool{}, MaxFileSize: maxFileSize}
	r.Allow(dirs...)
	return r
}

// Allow adds paths the caller trusts (the command line's arguments, a
// --config file): a directory widens the root to its whole tree, a file to
// that file alone. A path that does not exist is ignored.
func (r *Root) Allow(paths ...string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range paths {
		real, err := realAbs(p)
		if err != nil {
			continue
		}
		st, err := os.Stat(real)
		if err != nil {
			continue
		}
		if st.IsDir() {
			r.dirs = append(r.dirs, real)
		} else {
			r.files[real] = true
		}
	}
}

// Dirs are the root's directories, real and absolute.
func (r *Root) Dirs() []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.dirs...)
}

// Files are the single files the root allows (Allow of a file), real and
// absolute, sorted.
func (r *Root) Files() []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.files))
	for f := range r.files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Limit is the cap on one file's size (MaxFileSize, or its default).
func (r *Root) Limit() int64 { return r.maxFileSize() }

func (r *Root) maxFileSize() int64 {
	if r == nil || r.MaxFileSize <= 0 {
		return DefaultMaxFileSize
	}
	return r.MaxFileSize
}

// Contains reports whether real (absolute and symlink-free) lies inside the
// root. A nil Root contains everything.
func (r *Root) Contains(real string) bool {
	if r == nil {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.files[real] {
		return true
	}
	for _, d := range r.dirs {
		if Within(d, real) {
			return true
		}
	}
	return false
}

// Resolve returns p's real path (absolute, every symlink resolved) when it
// lies inside the root; a URL or a path leaving the root is a *Refusal. The
// check is on the resolved path: "a/../../x" and a link to /etc are both
// refused, a link from one part of the tree to another is not.
func (r *Root) Resolve(p string) (string, error) {
	if IsURL(p) {
		return "", &Refusal{Path: p, Err: ErrURL}
	}
	real, err := r.realPath(p)
	if err != nil {
		return "", err
	}
	if !r.Contains(real) {
		return "", &Refusal{Path: p, Err: ErrOutside, Real: real}
	}
	return real, nil
}

// realPath is realAbs with each directory's real path asked once per
// root (Resolver.Real); a nil Root keeps no cache.
func (r *Root) realPath(p string) (string, error) {
	if r == nil {
		return realAbs(p)
	}
	return r.resolver.Real(p)
}

// realAbs is p absolute with every symlink resolved; the error of a path
// that does not exist (or a link loop) is returned as is.
func realAbs(p string) (string, error) {
	abs, err := Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Within reports whether p is dir or lies inside it; both absolute and
// clean. "..foo" is inside.
func Within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// IsURL reports a path kustomize would fetch over the network or clone
// (http, https, git, ssh, file URLs and the scp-like git@host:path form).
func IsURL(p string) bool {
	lp := strings.ToLower(strings.TrimSpace(p))
	for _, s := range []string{"http://", "https://", "git://", "ssh://", "file://", "git@", "git::", "github.com/", "gitlab.com/", "bitbucket.org/"} {
		if strings.HasPrefix(lp, s) {
			return true
		}
	}
	return strings.Contains(lp, "://")
}
