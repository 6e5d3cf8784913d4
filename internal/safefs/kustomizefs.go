package safefs

import (
	"errors"
	"path/filepath"
	"sync"
	"time"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// KustomizeFS is the filesystem kustomize builds over: reads go through
// the Root (inside it, regular files, capped), every file is checked
// against the YAML bounds before kustomize parses it, a kustomization
// naming a URL is refused, and nothing is written.
type KustomizeFS struct {
	Root *Root
	disk filesys.FileSystem

	// Deadline, when set, ends the build: every read after it fails, so
	// a build that runs too long stops at its next file and is reported.
	Deadline time.Time

	mu        sync.Mutex
	refusal   error
	resources int // what the build has read so far may hold (buildwork.go)
}

// ErrBuildTimeout is a build stopped at its Deadline.
var ErrBuildTimeout = errors.New("the kustomize build took too long and was stopped")

// Expired is ErrBuildTimeout once the deadline has passed.
func (k *KustomizeFS) Expired() error {
	if k == nil || k.Deadline.IsZero() || time.Now().Before(k.Deadline) {
		return nil
	}
	k.refused(ErrBuildTimeout)
	return ErrBuildTimeout
}

// NewKustomizeFS is a read-only kustomize filesystem over root.
func NewKustomizeFS(root *Root) *KustomizeFS {
	return &KustomizeFS{Root: root, disk: filesys.MakeFsOnDisk()}
}

var _ filesys.FileSystem = (*KustomizeFS)(nil)

// ErrReadOnly is returned by every write kustomize might attempt.
var ErrReadOnly = errors.New("mirrorlint builds read-only")

func (k *KustomizeFS) Create(string) (filesys.File, error) { return nil, ErrReadOnly }
func (k *KustomizeFS) Mkdir(string) error                  { return ErrReadOnly }
func (k *KustomizeFS) MkdirAll(string) error               { return ErrReadOnly }
func (k *KustomizeFS) RemoveAll(string) error              { return ErrReadOnly }
func (k *KustomizeFS) WriteFile(string, []byte) error      { return ErrReadOnly }

// Open opens a regular file inside the root.
func (k *KustomizeFS) Open(p string) (filesys.File, error) {
	real, err := k.Root.Resolve(p)
	if err != nil {
		return nil, err
	}
	f, err := k.disk.Open(real)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, &Refusal{Path: p, Err: ErrNotRegular}
	}
	return f, nil
}

// IsDir is false for a path outside the root.
func (k *KustomizeFS) IsDir(p string) bool {
	real, err := k.Root.Resolve(p)
	return err == nil && k.disk.IsDir(real)
}

// Exists is false for a path outside the root, so kustomize looking for a
// kustomization file there finds none.
func (k *KustomizeFS) Exists(p string) bool {
	real, err := k.Root.Resolve(p)
	return err == nil && k.disk.Exists(real)
}

func (k *KustomizeFS) ReadDir(p string) ([]string, error) {
	real, err := k.Root.Resolve(p)
	if err != nil {
		return nil, err
	}
	return k.disk.ReadDir(real)
}

// CleanedAbs refuses a directory outside the root: kustomize confirms a
// base's directory this way before it loads anything from it.
func (k *KustomizeFS) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	if IsURL(p) {
		return "", "", &Refusal{Path: p, Err: ErrURL}
	}
	d, f, err := k.cleanedAbs(p)
	if err != nil {
		return d, f, err
	}
	if !k.Root.Contains(string(d)) {
		return "", "", &Refusal{Path: p, Err: ErrOutside, Real: string(d)}
	}
	return d, f, nil
}

// cleanedAbs is the disk's CleanedAbs, answered from what the run knows of
// the tree (its listings and the directories it resolved) when the path
// is a directory or a regular file it listed: kustomize asks it of every
// file it loads, and on disk it costs a system call per component of the
// path. Anything else (a link, a path not listed, an error to report in
// the disk's words) is asked of the disk.
func (k *KustomizeFS) cleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	if real, t, ok := k.Root.listedPath(p); ok {
		if t.IsDir() {
			return filesys.ConfirmedDir(real), "", nil
		}
		return filesys.ConfirmedDir(filepath.Dir(real)), filepath.Base(real), nil
	}
	return k.disk.CleanedAbs(p)
}

// Glob keeps the matches inside the root.
func (k *KustomizeFS) Glob(pattern string) ([]string, error) {
	m, err := k.disk.Glob(pattern)
	if err != nil {
		return nil, err
	}
	out := m[:0]
	for _, p := range m {
		if _, err := k.Root.Resolve(p); err == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// Walk walks a directory inside the root, skipping what leads out of it.
func (k *KustomizeFS) Walk(p string, fn filepath.WalkFunc) error {
	if _, err := k.Root.Resolve(p); err != nil {
		return err
	}
	return k.disk.Walk(p, fn)
}

// ReadFile reads through the Root and checks what kustomize will parse.
func (k *KustomizeFS) ReadFile(p string) ([]byte, error) {
	return k.ReadStripped(p, nil)
}

// ReadStripped is ReadFile of a text that strip (when not nil) may rewrite
// before kustomize sees it: what is checked is what strip returns, or the
// text as read when it returns nil. A kustomization served without the
// entries a build leaves out (a remote resource) is then not refused for
// them, since kustomize never reads them.
func (k *KustomizeFS) ReadStripped(p string, strip func([]byte) []byte) ([]byte, error) {
	if err := k.Expired(); err != nil {
		return nil, err
	}
	data, err := k.Root.ReadFile(p)
	if err == nil && strip != nil {
		if s := strip(data); s != nil {
			data = s
		}
	}
	if err == nil && IsKustomization(p) {
		err = CheckKustomization(p, data)
	}
	if err == nil {
		err = CheckYAML(p, data)
	}
	if err == nil {
		err = k.countResources(p, data)
	}
	if err != nil {
		k.refused(err)
		return nil, err
	}
	return data, nil
}

// refused keeps the first refusal of a build. kustomize swallows some
// errors (a kustomization file it cannot read is "not found") and words
// others with %v, so the build's error alone may not say why.
func (k *KustomizeFS) refused(err error) {
	var r *Refusal
	var pe *PositionedError
	if !errors.As(err, &r) && !errors.As(err, &pe) && !errors.Is(err, ErrBuildTimeout) {
		return // a missing file: kustomize's own message says it
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.refusal == nil {
		k.refusal = err
	}
}

// Explain turns a failed build's error into the layer's refusal that
// caused it, when there was one (positioned for a URL or a bounds
// refusal); other errors are returned as they are.
func (k *KustomizeFS) Explain(err error) error {
	if err == nil || k == nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.refusal != nil {
		return k.refusal
	}
	return err
}
