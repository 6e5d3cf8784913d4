package safefs

import (
	"bytes"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/mirrorlint/mirrorlint/internal/heapwatch"
)

// Budget caps the bytes a whole run reads, across every file and reader:
// a tree of many files each under the per-file cap still cannot make the
// run hold more than this.
type Budget struct {
	Max  int64
	used atomic.Int64
	// MaxObjects caps the objects the run keeps from all its files; 0 is
	// no cap.
	MaxObjects int64
	objects    atomic.Int64
	told       atomic.Bool
	// Memory, when set, is how far the Go heap may grow over what it held
	// when the run first asked (see HeapOver); 0 is no limit.
	Memory int64
	// Gauge, when set, measures the Memory budget instead of a gauge
	// of this process's heap made at the first question (a test's).
	Gauge     *heapwatch.Gauge
	gaugeOnce sync.Once
	// MaxBuildWork caps what the run's kustomize builds may cost
	// together (buildwork.go); 0 is DefaultBuildWork.
	MaxBuildWork int64
	buildWork    atomic.Int64
}

// DefaultMemory is how far the heap may grow while a run reads and
// parses its tree, when the command sets no other: about four times what
// the 10,000-file benchmark tree holds at its peak, and within what a CI
// runner (7 GiB or more) has to spare. It is lowered to fit GOMEMLIMIT
// and ulimit -v, under which a Go process has far less room than the
// number says (it reserves a gigabyte of address space at start).
const DefaultMemory int64 = 1 << 30

// HeapOver reports whether the heap, collected, has grown past the
// Memory budget since the run first asked: from then on every read
// through the run's roots is refused (ErrMemory) and the loaders stop
// parsing, so that a tree of a million tiny documents ends in one
// limit-exceeded finding instead of the process dying of it.
func (b *Budget) HeapOver() bool {
	return b.gauge().Over()
}

// MemoryLimit words the memory budget for a message ("1024 MiB", or
// "380 MiB, lowered to fit ulimit -v").
func (b *Budget) MemoryLimit() string {
	if g := b.gauge(); g != nil {
		return g.Describe()
	}
	return ""
}

// gauge is the run's heap gauge, made at the first question; nil when
// the run has no memory budget.
func (b *Budget) gauge() *heapwatch.Gauge {
	if b == nil || (b.Memory <= 0 && b.Gauge == nil) {
		return nil
	}
	b.gaugeOnce.Do(func() {
		if b.Gauge == nil {
			b.Gauge = heapwatch.NewGauge(b.Memory)
		}
	})
	return b.Gauge
}

// DefaultObjectBudget is the objects a run may keep in all: a hundred
// times the 10,000-file benchmark tree, far below what would exhaust a CI
// runner's memory once decoded.
const DefaultObjectBudget int64 = 1_000_000

// TakeObjects accounts n objects and returns how many of them fit.
func (b *Budget) TakeObjects(n int) int {
	if b == nil || b.MaxObjects <= 0 || n == 0 {
		return n
	}
	after := b.objects.Add(int64(n))
	if after <= b.MaxObjects {
		return n
	}
	return max(0, n-int(after-b.MaxObjects))
}

// FirstObjectRefusal is true once per run: the run reports the object
// budget being spent once, not once per file or load.
func (b *Budget) FirstObjectRefusal() bool {
	return b != nil && b.told.CompareAndSwap(false, true)
}

// DefaultBudget is the bytes a run may read in all when the command sets
// no other: many times the largest real repositories (the 10,000-file
// benchmark tree reads about 40 MB), far below what would exhaust a CI
// runner's memory once parsed.
const DefaultBudget int64 = 512 << 20

// take accounts n bytes; false when the budget is spent.
func (b *Budget) take(n int64) bool {
	if b == nil || b.Max <= 0 {
		return true
	}
	return b.used.Add(n) <= b.Max
}

// Spent reports whether any of the run's budgets has refused something:
// the heap grown past Memory, more bytes asked than Max, more objects
// than MaxObjects. What a stage does after that depends on when it ran.
func (b *Budget) Spent() bool {
	if b == nil {
		return false
	}
	return b.HeapOver() || b.Max > 0 && b.used.Load() > b.Max || b.MaxObjects > 0 && b.objects.Load() > b.MaxObjects
}

// Used is how many bytes have been accounted.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

// ReadFile reads p when the root allows it: inside the root once resolved,
// a regular file, under the size cap and the budget.
func (r *Root) ReadFile(p string) ([]byte, error) {
	real, err := r.openable(p)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := r.readReal(p, real, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadInto is ReadFile into a caller's buffer (the walker recycles them),
// capped at max bytes instead of the root's cap when max > 0.
func (r *Root) ReadInto(p string, buf *bytes.Buffer, max int64) error {
	real, err := r.openable(p)
	if err != nil {
		return err
	}
	return r.readCapped(p, real, buf, max)
}

// openable is the path a read opens: Resolve's real path, or for a nil
// Root, which confines nothing, p itself (absolute) unless it is a link, so
// that a library caller reading a tree does not pay filepath.EvalSymlinks
// on every component of every path; a link is resolved, and opened as its
// target, as Resolve would.
func (r *Root) openable(p string) (string, error) {
	if r != nil || IsURL(p) {
		return r.Resolve(p)
	}
	abs, err := Abs(p)
	if err != nil {
		return "", err
	}
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&os.ModeSymlink == 0 {
		return abs, nil
	}
	return r.Resolve(p)
}

// readReal opens the resolved path without following a link planted
// there since, without blocking on a FIFO, and checks what it opened.
func (r *Root) readReal(p, real string, buf *bytes.Buffer) error {
	return r.readCapped(p, real, buf, 0)
}

func (r *Root) readCapped(p, real string, buf *bytes.Buffer, max int64) error {
	if r != nil && r.Budget.HeapOver() {
		return &Refusal{Path: p, Err: ErrMemory, Limit: r.Budget.MemoryLimit()}
	}
	f, err := os.OpenFile(real, os.O_RDONLY|noFollowNoBlock, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &Refusal{Path: p, Err: ErrNotRegular}
	}
	if max <= 0 {
		max = r.maxFileSize()
	}
	if fi.Size() > max {
		return &Refusal{Path: p, Err: ErrTooLarge, Max: max, Size: fi.Size()}
	}
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	n, err := buf.ReadFrom(io.LimitReader(f, max+1))
	if err != nil {
		return err
	}
	if n > max { // grew while read
		return &Refusal{Path: p, Err: ErrTooLarge, Max: max, Size: -1}
	}
	if r != nil && !r.Budget.take(n) {
		return &Refusal{Path: p, Err: ErrBudget, Max: r.Budget.Max}
	}
	return nil
}

// Stat is os.Stat of p when it lies inside the root.
func (r *Root) Stat(p string) (os.FileInfo, error) {
	real, err := r.Resolve(p)
	if err != nil {
		return nil, err
	}
	return os.Stat(real)
}

// Check refuses, without reading it, a path that exists but that ReadFile
// would refuse (outside the root, not a regular file, over the size cap);
// a path that does not exist passes, for callers that look it up
// elsewhere first (text a build already read).
func (r *Root) Check(p string) error {
	if IsURL(p) {
		return &Refusal{Path: p, Err: ErrURL}
	}
	real, err := r.realPath(p)
	if err != nil {
		return nil
	}
	if !r.Contains(real) {
		return &Refusal{Path: p, Err: ErrOutside, Real: real}
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil
	}
	if !fi.Mode().IsRegular() {
		return &Refusal{Path: p, Err: ErrNotRegular}
	}
	if max := r.maxFileSize(); fi.Size() > max {
		return &Refusal{Path: p, Err: ErrTooLarge, Max: max, Size: fi.Size()}
	}
	return nil
}

// ReadRegular reads p if it is a regular file under DefaultMaxFileSize,
// wherever it is: for readers that hold no Root but must never read a
// device or an endless file a link leads to.
func ReadRegular(p string) ([]byte, error) {
	var r *Root
	return r.ReadFile(p)
}
