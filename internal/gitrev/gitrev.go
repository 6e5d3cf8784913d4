// Package gitrev reads a git repository without touching its working tree,
// index or HEAD: its top level, the files git holds (Files, which restrict
// what a run reads), and the whole tree as it was at a revision, written to
// a private temporary directory (what diff --base and lint --base compare
// against).
package gitrev

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// Snapshot is the repository as it was at a git revision, written to a
// private temporary directory, with the requested paths located inside it.
// The whole tree is extracted, not only the requested paths, because a
// kustomize overlay reads its bases (../../base) from outside the path the
// user named; without them the old side fails to build. The working tree,
// the index and HEAD are never touched: the files come from `git ls-tree`
// and `git cat-file`, which (unlike `git archive`) apply no export-ignore or
// export-subst attributes, so the old side is byte for byte what was
// committed.
type Snapshot struct {
	Rev string // as given
	// Dir is the temporary root (the repository's top level at Rev); Paths
	// the old-side paths to load, one per requested path that existed at
	// Rev; Missing the requested paths that did not (a tree added by the
	// change).
	Dir     string
	Paths   []string
	Missing []string
	// Roots has one entry per requested path, in order: the path inside
	// the copy whether or not it existed at Rev, so that the two sides of a
	// comparison line up argument by argument.
	Roots []string
	// Top is the repository's top level in the working tree: a file of
	// the copy at Dir/x is the working tree's Top/x.
	Top string
	// Absent are the files of the revision whose blob the local object
	// store lacks (a partial clone, a pruned or damaged repository), as
	// paths inside the copy. Each is written as an empty file, so that the
	// clusters reading it can be told apart and said not to be compared;
	// the other files are all there.
	Absent []string

	links []string // the symlinks extract recreated, for confineLinks
}

// Checkout materialises the repository the working directory is in at
// revision rev and maps paths (relative to the working directory, as the
// user typed them; none means ".") to the same paths inside that copy.
func Checkout(rev string, paths []string) (*Snapshot, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("--base %q: not a revision", rev)
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	topDir, err := TopLevel()
	if err != nil {
		return nil, fmt.Errorf("--base needs a git repository: %w", err)
	}
	commit, err := git(topDir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if shallow(topDir) {
			return nil, fmt.Errorf("--base %q: no such commit in %s, which is a shallow clone: the base revision was not fetched. "+
				"Fetch the history (actions/checkout with `fetch-depth: 0`, or `git fetch --unshallow`), or at least the base commit (`git fetch --depth=1 origin %s`)", rev, topDir, rev)
		}
		return nil, fmt.Errorf("--base %q: no such commit in %s", rev, topDir)
	}
	commitID := strings.TrimSpace(string(commit))

	rels := make([]string, len(paths))
	for i, p := range paths {
		if rels[i], err = relativeToTop(topDir, p); err != nil {
			return nil, err
		}
	}

	s := &Snapshot{Rev: rev, Top: topDir}
	if s.Dir, err = os.MkdirTemp("", "mirrorlint-base-"); err != nil {
		return nil, err
	}
	track(s.Dir)
	if err := s.extract(topDir, commitID); err != nil {
		s.Close()
		return nil, err
	}
	for i, rel := range rels {
		p := filepath.Join(s.Dir, filepath.FromSlash(rel))
		s.Roots = append(s.Roots, p)
		// The top level always existed, even if empty; anything else
		// exists iff git had a blob at or under it (git has no empty
		// directories).
		if rel != "" {
			if _, err := os.Lstat(p); err != nil {
				s.Missing = append(s.Missing, paths[i])
				continue
			}
		}
		s.Paths = append(s.Paths, p)
	}
	return s, nil
}

// Close removes the temporary copy.
func (s *Snapshot) Close() {
	if s != nil && s.Dir != "" {
		os.RemoveAll(s.Dir)
		untrack(s.Dir)
	}
}

// Name maps a path inside the copy back to its path from the repository's
// top level (what `git show REV:path` takes), for positions in messages;
// a path outside the copy is returned as is. Messages add "(at REV)": a
// temporary directory is never shown.
func (s *Snapshot) Name(p string) string {
	rel, in := manifest.Within(s.Dir, p)
	if !in {
		return p
	}
	return filepath.ToSlash(rel)
}

// InCopy maps a path of the working tree (absolute, or relative to the
// working directory) to the same path inside the copy; false for a path
// outside the repository.
func (s *Snapshot) InCopy(p string) (string, bool) {
	rel, err := relativeToTop(s.Top, p)
	if err != nil {
		return "", false
	}
	return filepath.Join(s.Dir, filepath.FromSlash(rel)), true
}

// WorkTree maps a path inside the copy to the same path in the working
// tree (which may not exist there any more); "" for a path outside the copy.
func (s *Snapshot) WorkTree(p string) string {
	rel, in := manifest.Within(s.Dir, p)
	if !in {
		return ""
	}
	return filepath.Join(s.Top, rel)
}

// shallow reports whether the repository at top is a shallow clone (what
// actions/checkout makes by default): its history stops short, so a base
// revision may simply not have been fetched.
func shallow(top string) bool {
	out, err := git(top, "rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// relativeToTop turns a user path into a slash path from the top level
// ("" for the top itself), resolving symlinks on both sides so that
// /tmp vs /private/tmp style aliases do not defeat the comparison. The
// path need not exist any more in the working tree.
func relativeToTop(top, p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		return "", err
	}
	real := abs
	// Resolve the longest existing ancestor, then re-append the rest.
	for dir, rest := abs, ""; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			real = filepath.Join(r, rest)
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
	rel, in := manifest.Within(realTop, real)
	if !in {
		return "", fmt.Errorf("%s is outside the git repository at %s", p, top)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

type treeEntry struct {
	mode, oid, path string
}

// extract writes every blob of commit below s.Dir. Two git processes do
// the whole job whatever the size of the repository: one ls-tree for the
// listing and one cat-file --batch that streams the contents straight into
// the files, so memory stays bounded by the largest symlink target rather
// than the size of the tree.
func (s *Snapshot) extract(top, commit string) error {
	out, err := git(top, "ls-tree", "-r", "-z", "--full-tree", commit)
	if err != nil {
		return err
	}
	var entries []treeEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, path, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return fmt.Errorf("git ls-tree: unexpected line %q", rec)
		}
		if f[1] != "blob" {
			continue // submodules have no content here
		}
		entries = append(entries, treeEntry{mode: f[0], oid: f[2], path: path})
	}
	if err := s.writeBlobs(top, entries); err != nil {
		return err
	}
	return s.confineLinks()
}

// confineLinks removes every recreated symlink that, resolved, leaves the
// snapshot or leads nowhere. Each was checked on its spelling when written,
// but a spelling says nothing of the links it goes through: with
// sub/up -> .. committed, sub/x -> up/../secret reads as sub/secret and
// resolves to the directory holding the snapshot. Removing a link can only
// make others dangle, never escape, so one pass is enough.
func (s *Snapshot) confineLinks() error {
	if len(s.links) == 0 {
		return nil
	}
	realDir, err := filepath.EvalSymlinks(s.Dir)
	if err != nil {
		return err
	}
	var bad []string
	for _, l := range s.links {
		real, err := filepath.EvalSymlinks(l)
		if _, in := manifest.Within(realDir, real); err != nil || !in {
			bad = append(bad, l)
		}
	}
	for _, l := range bad {
		if err := os.Remove(l); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// writeBlobs streams every blob through one `git cat-file --batch`: the
// object ids are fed from a goroutine while the answers are copied into
// their files, so neither side ever holds the whole tree.
func (s *Snapshot) writeBlobs(top string, entries []treeEntry) error {
	if len(entries) == 0 {
		return nil
	}
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = top
	cmd.Env = gitEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git: %w", err)
	}
	go func() {
		w := bufio.NewWriter(stdin)
		for _, e := range entries {
			if _, err := w.WriteString(e.oid + "\n"); err != nil {
				break // git stopped reading; its exit status says why
			}
		}
		w.Flush()
		stdin.Close()
	}()
	readErr := s.readBatch(bufio.NewReaderSize(stdout, 256<<10), entries)
	if readErr != nil {
		// Unblock git (and the feeder) before waiting for it.
		io.Copy(io.Discard, stdout)
	}
	waitErr := cmd.Wait()
	if readErr != nil {
		return readErr
	}
	if waitErr != nil {
		return fmt.Errorf("git cat-file: %v: %s", waitErr, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// readBatch reads cat-file --batch answers, one per entry, in order.
func (s *Snapshot) readBatch(r *bufio.Reader, entries []treeEntry) error {
	made := map[string]bool{s.Dir: true}
	for _, e := range entries {
		header, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(header)
		if len(f) == 2 && f[0] == e.oid && f[1] == "missing" {
			if err := s.writeAbsent(e, made); err != nil {
				return err
			}
			continue
		}
		if len(f) != 3 || f[0] != e.oid {
			return fmt.Errorf("git cat-file: unexpected header %q", header)
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return fmt.Errorf("git cat-file: unexpected header %q", header)
		}
		if err := s.writeEntry(e, io.LimitReader(r, size), size, made); err != nil {
			return err
		}
		if _, err := r.Discard(1); err != nil { // the newline after the contents
			return fmt.Errorf("git cat-file: %w", err)
		}
	}
	return nil
}

// writeAbsent records a blob git does not have and leaves an empty file
// in its place (nothing for a symlink, whose target is unknown).
func (s *Snapshot) writeAbsent(e treeEntry, made map[string]bool) error {
	dst, err := s.entryPath(e, made)
	if err != nil {
		return err
	}
	s.Absent = append(s.Absent, dst)
	if e.mode == "120000" {
		return nil
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// entryPath is where e goes in the copy, its directory made.
func (s *Snapshot) entryPath(e treeEntry, made map[string]bool) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(e.path))
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("git ls-tree: refusing path %q", e.path)
	}
	dst := filepath.Join(s.Dir, clean)
	if dir := filepath.Dir(dst); !made[dir] {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		made[dir] = true
	}
	return dst, nil
}

// writeEntry writes one blob of size bytes read from data; it consumes
// exactly size bytes even when it writes nothing. made caches the
// directories already created.
func (s *Snapshot) writeEntry(e treeEntry, data io.Reader, size int64, made map[string]bool) error {
	dst, err := s.entryPath(e, made)
	if err != nil {
		return err
	}
	if e.mode == "120000" {
		// A committed symlink: recreate it only when it stays inside the
		// snapshot, so the loader never reads outside what was committed.
		raw, err := io.ReadAll(data)
		if err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		target := string(raw)
		if filepath.IsAbs(target) {
			return nil
		}
		resolved := filepath.Join(filepath.Dir(dst), target)
		if _, in := manifest.Within(s.Dir, resolved); !in {
			return nil
		}
		// Checked again once every link exists (confineLinks).
		s.links = append(s.links, dst)
		return os.Symlink(target, dst)
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != size {
		err = fmt.Errorf("git cat-file: %s: short read (%d of %d bytes)", e.path, n, size)
	}
	return err
}

// git runs git in dir ("" for the working directory) and returns stdout,
// with stderr in the error.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("git %s: %s", args[0], strings.TrimSpace(stderr.String()))
		}
		return nil, fmt.Errorf("git: %w", err)
	}
	return out, nil
}

// gitEnv keeps a user's pager, editor or locale from changing what git
// prints.
func gitEnv() []string {
	return append(os.Environ(), "GIT_PAGER=cat", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
}

// TopLevel is the top directory of the git repository holding the working
// directory (an error outside one), asked of git with the same hermetic
// environment as every other git call here.
func TopLevel() (string, error) {
	top, err := git("", "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(top), "\n"), nil
}
